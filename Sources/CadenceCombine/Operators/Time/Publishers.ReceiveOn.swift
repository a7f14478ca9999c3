import CadenceSupport
extension Publisher {
    /// Specifies the scheduler on which to receive elements from the publisher.
    ///
    /// Values and the completion reach the downstream from actions on `scheduler`; the subscription itself, and the
    /// downstream's requests and cancellation, pass through at once on the caller's thread. `subscribe(on:options:)`
    /// is the counterpart that moves the upstream's side (subscribe, request, cancel) onto a scheduler instead.
    ///
    /// ```swift
    /// loader.results
    ///     .receive(on: DispatchQueue.main)
    ///     .sink { results in label.text = results.summary }
    /// ```
    ///
    /// - Parameters:
    ///   - scheduler: The scheduler the publisher uses for element delivery.
    ///   - options: Scheduler options used to customize element delivery.
    /// - Returns: A publisher that delivers elements using the specified scheduler.
    public func receive<S: Scheduler>(
        on scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.ReceiveOn<Self, S> {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that delivers elements to its downstream subscriber on a specific scheduler.
    ///
    /// - Delivery: each value and the completion is handed to `scheduler.schedule(options:_:)` as its own action, in
    ///   the order the upstream sent them; a scheduler that runs its actions in order (a serial queue, a run loop, a
    ///   virtual clock, which runs same-tick work first in, first out) delivers them in that order. `receive(_:)`
    ///   answers the upstream `.none`; what the downstream answers when a value reaches it goes upstream as a
    ///   `request(_:)` from that action.
    /// - Synchronous: the downstream receives the subscription at once (the note in Combine's documentation: this
    ///   operator does not affect the scheduler that calls `receive(subscription:)`), and `request(_:)` and
    ///   `cancel()` reach the upstream at once, on the caller's thread, as in Combine.
    /// - Cancellation: after `cancel()` nothing more reaches the downstream. Actions already handed to the scheduler
    ///   cannot be taken back (the scheduler API gives no handle), so they stay queued but do nothing when they run.
    ///   Combine still delivers a completion that was scheduled before the cancel; Cadence does not (its rule: after
    ///   `cancel()`, nothing is delivered).
    /// - Demand: passed straight through; `request(.none)` traps, as for every Cadence subscription (Combine
    ///   forwards it).
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The scheduler the publisher uses to deliver elements.
        public let scheduler: Context

        /// Scheduler options used to customize element delivery.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that delivers elements to its downstream subscriber on a specific scheduler.
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches the subscriber to the upstream through an inner subscription that hops onto the scheduler.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ReceiveOnSubscription(downstream: subscriber, scheduler: scheduler, options: options))
        }
    }
}

/// The subscriber to the upstream and the subscription handed to the downstream of `receive(on:options:)`.
private final class ReceiveOnSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private enum Status {
        case awaitingSubscription(Downstream)
        case active(any Subscription, Downstream)
        /// The upstream completed and the completion is on its way through the scheduler, behind the values sent
        /// before it; those still go out.
        case completing(Downstream)
        case terminal
    }

    private let scheduler: Context
    private let options: Context.SchedulerOptions?

    // `lock` guards `status`.
    private let lock = UnfairLock()
    private var status: Status

    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        status = .awaitingSubscription(downstream)
        self.scheduler = scheduler
        self.options = options
    }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription(let downstream) = status else {
            lock.unlock()
            subscription.cancel()
            return
        }
        status = .active(subscription, downstream)
        lock.unlock()
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .active = status else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        scheduler.schedule(options: options) { self.deliver(input) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard case .active(_, let downstream) = status else {
            lock.unlock()
            return
        }
        status = .completing(downstream)
        lock.unlock()
        scheduler.schedule(options: options) { self.deliver(completion) }
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertPositive(in: "ReceiveOn")
        lock.lock()
        guard case .active(let upstream, _) = status else {
            lock.unlock()
            return
        }
        lock.unlock()
        upstream.request(demand)
    }

    func cancel() {
        lock.lock()
        let previous = status
        status = .terminal
        lock.unlock()
        // `previous` keeps the downstream alive until here, so its release runs unlocked.
        if case .active(let upstream, _) = previous {
            upstream.cancel()
        }
    }

    /// Runs on the scheduler: hands one value to the downstream unless the subscription was cancelled meanwhile,
    /// and sends what the downstream asks for next upstream.
    private func deliver(_ input: Input) {
        lock.lock()
        let downstream: Downstream
        switch status {
        case .active(_, let subscriber), .completing(let subscriber):
            downstream = subscriber
        case .awaitingSubscription, .terminal:
            lock.unlock()
            return
        }
        lock.unlock()
        let more = downstream.receive(input)
        guard more > 0 else { return }
        lock.lock()
        guard case .active(let upstream, _) = status else {
            lock.unlock()
            return
        }
        lock.unlock()
        upstream.request(more)
    }

    /// Runs on the scheduler: completes the downstream unless the subscription was cancelled meanwhile.
    private func deliver(_ completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard case .completing(let downstream) = status else {
            lock.unlock()
            return
        }
        status = .terminal
        lock.unlock()
        downstream.receive(completion: completion)
    }

    var description: String { "ReceiveOn" }

    var customMirror: Mirror { Mirror(self, children: [:]) }

    var playgroundDescription: Any { description }
}

