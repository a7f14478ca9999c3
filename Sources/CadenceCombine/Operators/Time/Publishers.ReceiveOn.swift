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
    ///   `cancel()` reach the upstream at once, on the caller's thread, as in Combine. Once the upstream has
    ///   completed, `request(_:)` and `cancel()` no longer reach it, but what the downstream answers a value
    ///   delivered before the completion still does; a `cancel()` before the upstream's subscription arrived does
    ///   nothing (that subscription still reaches the downstream), as in Combine.
    /// - Cancellation: after `cancel()` nothing more reaches the downstream. Actions already handed to the scheduler
    ///   cannot be taken back (the scheduler API gives no handle), so they stay queued but do nothing when they run.
    ///   Combine still delivers a completion that was scheduled before the cancel; Cadence does not (its rule: after
    ///   `cancel()`, nothing is delivered).
    /// - The subscription keeps its downstream for as long as it lives, after a cancel or the completion too, as in
    ///   Combine; the downstream goes when the upstream and the downstream let go of the subscription.
    /// - Demand: passed straight through, `.none` included.
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

/// The subscriber to the upstream and the subscription handed to the downstream of `receive(on:options:)`: holds a
/// ``ReceiveOnStateMachine`` under its lock and does what each transition returns after leaving it.
private final class ReceiveOnSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let scheduler: Context
    private let options: Context.SchedulerOptions?
    private let state: Locked<ReceiveOnStateMachine<Downstream>>
    /// As in Combine, the subscription keeps its downstream for its whole life, after a cancel or the completion
    /// too; the state says whether it may still be called. It goes when the upstream and the downstream let go of the
    /// subscription, never under the lock.
    private let downstream: Downstream
    /// Holds this subscription for the deliveries scheduled, until it is cancelled.
    private let pending = PendingWork<ReceiveOnSubscription>()

    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        state = Locked(ReceiveOnStateMachine(downstream: downstream))
        self.downstream = downstream
        self.scheduler = scheduler
        self.options = options
    }

    func receive(subscription: any Subscription) {
        guard let downstream = state.withLock({ $0.receive(subscription: subscription) }) else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard state.withLock({ $0.receiveValue() }) else { return .none }
        scheduler.schedule(options: options, pending.action(for: self) { $0.deliver(input) })
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        guard state.withLock({ $0.receiveCompletion() }) else { return }
        scheduler.schedule(options: options, pending.action(for: self) { $0.deliver(completion) })
    }

    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.request() }?.request(demand)
    }

    func cancel() {
        guard let (upstream, released) = state.withLock({ $0.cancel() }) else { return }
        upstream?.cancel()
        // The state's reference to the downstream goes here, outside the lock.
        withExtendedLifetime(released) {}
        pending.release()
    }

    /// Runs on the scheduler: hands one value to the downstream unless the subscription was cancelled meanwhile,
    /// and sends what the downstream asks for next upstream.
    private func deliver(_ input: Input) {
        guard let downstream = state.withLock({ $0.deliverValue() }) else { return }
        let more = downstream.receive(input)
        guard more > 0 else { return }
        state.withLock { $0.answer() }?.request(more)
    }

    /// Runs on the scheduler: completes the downstream unless the subscription was cancelled meanwhile.
    private func deliver(_ completion: Subscribers.Completion<Failure>) {
        state.withLock { $0.deliverCompletion() }?.receive(completion: completion)
    }

    var description: String { "ReceiveOn" }

    var customMirror: Mirror { Mirror(self, children: [:]) }

    var playgroundDescription: Any { description }
}
