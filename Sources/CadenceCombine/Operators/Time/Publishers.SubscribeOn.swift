import CadenceSupport

extension Publisher {
    /// Specifies the scheduler on which to perform subscribe, cancel, and request operations.
    ///
    /// Where `receive(on:options:)` moves what flows down (values, completion) onto a scheduler, this moves what
    /// flows up: the upstream is subscribed to, asked for values and cancelled from actions on `scheduler`.
    ///
    /// ```swift
    /// diskReader                          // does its blocking work when subscribed to and asked for values
    ///     .subscribe(on: backgroundQueue)
    ///     .receive(on: DispatchQueue.main)
    ///     .sink { chunk in view.append(chunk) }
    /// ```
    ///
    /// - Parameters:
    ///   - scheduler: The scheduler used to send messages to upstream publishers.
    ///   - options: Options that customize the delivery of elements.
    /// - Returns: A publisher which performs upstream operations on the specified scheduler.
    public func subscribe<S: Scheduler>(
        on scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.SubscribeOn<Self, S> {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that receives elements from an upstream publisher on a specific scheduler.
    ///
    /// - Upstream side on the scheduler: `upstream.subscribe(_:)` runs in an action on `scheduler`, so the
    ///   downstream gets nothing — not even its subscription — until that action runs. Each `request(_:)` and the
    ///   `cancel()` are handed to the scheduler as their own actions, in the order the downstream made them; a
    ///   scheduler that keeps order performs them in that order, as Combine does (a request made just before a
    ///   cancel still reaches the upstream, then the cancel).
    /// - Downstream side synchronous: the subscription, values and completion go to the downstream at once, on
    ///   whatever thread the upstream sends them; what the downstream answers to a value is `receive(_:)`'s answer.
    /// - Cancellation: from the moment `cancel()` is called nothing more reaches the downstream (values the upstream
    ///   sends before the scheduled cancel reaches it are dropped) and further requests are ignored. As in Combine,
    ///   the subscription keeps its downstream for as long as it lives, after a cancel or the completion too; the
    ///   downstream goes when the upstream and the downstream let go of the subscription. A `cancel()` before the upstream's subscription arrived does nothing, as in Combine: that
    ///   subscription still reaches the downstream.
    /// - Demand: passed through unchanged, `.none` included.
    /// - Re-entrance: a request or cancel that reaches the upstream's subscription from inside that subscription's
    ///   own `request(_:)` or `cancel()`, on the same thread (the scheduler ran it at once), is a misuse Combine traps
    ///   on: Cadence stops too, naming it, or reports it into the running test and drops the call.
    public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The scheduler the publisher should use to receive elements.
        public let scheduler: Context

        /// Scheduler options that customize the delivery of elements.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that performs the upstream's subscribe, request and cancel on a specific scheduler.
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Schedules the subscription to the upstream on the scheduler.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = SubscribeOnSubscription(downstream: subscriber, scheduler: scheduler, options: options)
            let upstream = self.upstream
            scheduler.schedule(options: options) { upstream.subscribe(inner) }
        }
    }
}

/// The subscriber to the upstream and the subscription handed to the downstream of `subscribe(on:options:)`.
private final class SubscribeOnSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let scheduler: Context
    private let options: Context.SchedulerOptions?

    // `lock` guards `status`.
    private let lock = UnfairLock()
    private var status: SubscriptionStatus<Downstream>
    /// The threads inside a request or cancel of the upstream's subscription now. The scheduled calls capture it,
    /// not this subscription, so that work a scheduler holds keeps no downstream alive.
    private let callingUpstream = ReentranceCheck()
    /// As in Combine, the subscription keeps its downstream for its whole life, after a cancel or the completion
    /// too; `status` says whether it may still be called. It goes when the upstream and the downstream let go of the
    /// subscription, never under the lock.
    private let downstream: Downstream

    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        status = .awaitingSubscription(downstream)
        self.downstream = downstream
        self.scheduler = scheduler
        self.options = options
    }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard let downstream = status.receive(subscription: subscription) else {
            lock.unlock()
            subscription.cancel()
            return
        }
        lock.unlock()
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed(_, let downstream) = status else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        return downstream.receive(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // `ended` keeps the upstream's subscription alive until here, so its release runs unlocked.
        guard let ended = status.complete() else {
            lock.unlock()
            return
        }
        lock.unlock()
        ended.context.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        guard let upstream = status.subscription else {
            lock.unlock()
            return
        }
        lock.unlock()
        let callingUpstream = callingUpstream
        scheduler.schedule(options: options) {
            callingUpstream.run(violating: Self.reentered("request(_:)")) { upstream.request(demand) }
        }
    }

    func cancel() {
        lock.lock()
        // As in Combine, a cancel before the upstream's subscription arrived does nothing: that subscription still
        // reaches the downstream.
        if case .awaitingSubscription = status {
            lock.unlock()
            return
        }
        let previous = status.terminate()
        lock.unlock()
        // `previous` holds the status's references until here, so they go unlocked.
        guard let upstream = previous.subscription else { return }
        let callingUpstream = callingUpstream
        scheduler.schedule(options: options) {
            callingUpstream.run(violating: Self.reentered("cancel()")) { upstream.cancel() }
        }
    }

    /// What a request or cancel breaks when the scheduler runs it inside another call to the upstream's
    /// subscription on the same thread: Combine makes each under a lock of its own, and traps there.
    private static func reentered(_ call: String) -> String {
        "SubscribeOn: \(call) reached the upstream's subscription from inside its own request(_:) or cancel() "
            + "on the same thread"
    }

    var description: String { "SubscribeOn" }

    var customMirror: Mirror { Mirror(self, children: [:]) }

    var playgroundDescription: Any { description }
}
