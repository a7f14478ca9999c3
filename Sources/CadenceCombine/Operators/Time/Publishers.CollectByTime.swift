import CadenceSupport

extension Publisher {
    /// Collects elements by a given time-grouping strategy, and emits a single array of the collection.
    ///
    /// At the end of each interval of `strategy`'s scheduler, the publisher sends an array of the elements it
    /// collected during it; `.byTimeOrCount` also sends one as soon as it holds `count` elements. When the upstream
    /// finishes, the elements collected so far go out as a last, shorter array before the completion; when it fails,
    /// they are dropped and the failure goes out instead.
    ///
    /// ```swift
    /// taps
    ///     .collect(.byTimeOrCount(DispatchQueue.main, .milliseconds(500), 10))
    ///     .sink { batch in analytics.send(batch) }
    /// ```
    ///
    /// > Note: When this publisher receives a request for `.max(n)` elements, it requests `.max(count * n)` from the
    /// > upstream publisher (`.byTimeOrCount`).
    ///
    /// - Parameters:
    ///   - strategy: The timing group strategy used by the operator to collect and publish elements.
    ///   - options: Scheduler options to use for the strategy.
    /// - Returns: A publisher that collects elements by a given strategy, and emits a single array of the collection.
    public func collect<S: Scheduler>(
        _ strategy: Publishers.TimeGroupingStrategy<S>,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.CollectByTime<Self, S> {
        Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
    }
}

extension Publishers {
    /// A strategy for collecting received elements.
    public enum TimeGroupingStrategy<Context: Scheduler> {
        /// A grouping that collects and periodically publishes items.
        case byTime(Context, Context.SchedulerTimeType.Stride)

        /// A grouping that collects and publishes items periodically or when a buffer reaches a maximum size.
        case byTimeOrCount(Context, Context.SchedulerTimeType.Stride, Int)
    }

    /// A publisher that buffers and periodically publishes its items.
    ///
    /// How it behaves, tick by tick (Combine documents little of it; what it leaves open is decided here):
    /// - Windows: the first window opens when the upstream's subscription arrives, and a repeating timer on the
    ///   scheduler ends one every `interval`. An empty window sends nothing. With `.byTimeOrCount`, reaching `count`
    ///   ends the window at once and restarts the timer, so the next window gets a full interval.
    /// - Delivery is on the scheduler, as in Combine: a window ended by the timer goes out from the timer's action; a
    ///   window ended by the count, and the completion, go out from an action handed to `schedule(options:_:)`. Groups
    ///   go out in the order their windows ended.
    /// - Demand is counted in groups and never exceeded. A window whose tick comes while the downstream has no demand
    ///   left stays open and keeps collecting until a tick finds demand (nothing is dropped); a group ended by the
    ///   count waits for demand, and goes out, on the scheduler, once the downstream asks.
    /// - Upstream demand, as in Combine: `.byTimeOrCount` asks for `count * n` when the downstream requests (or
    ///   answers) `n`; `.byTime` asks for `.max(1)` on each downstream request and answers `.max(1)` to every value,
    ///   so it collects everything the upstream sends. Unlike Combine, a downstream's answer to a group sent on a
    ///   timer tick also goes upstream (Combine drops it, and can stall).
    /// - Completion: the timer is cancelled at once. `.finished`: the open window goes out as a last group, after the
    ///   groups before it, as demand allows; then the completion. `.failure`: the open window is dropped and the
    ///   failure goes out on the scheduler after the groups the downstream already has demand for (groups waiting
    ///   for demand are dropped).
    /// - Cancellation: the timer is cancelled (a virtual clock's `pendingCount` drops), the upstream cancelled, the
    ///   downstream and the collected values released; a drain action already handed to the scheduler does nothing.
    /// - Bad input: a `count` below 1 traps when subscribing (`"CollectByTime: collect(.byTimeOrCount(_:_:_:)) needs
    ///   a count greater than zero, got 0"`). An interval of zero or less is reported through
    ///   `VirtualClock.issueReporter` (standard error unless a test binds one) and no timer runs: groups then go out
    ///   only when the count is reached and when the upstream finishes.
    public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// The strategy with which to collect and publish elements.
        public let strategy: Publishers.TimeGroupingStrategy<Context>

        /// `Scheduler` options to use for the strategy.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that buffers and periodically publishes its items.
        public init(
            upstream: Upstream, strategy: Publishers.TimeGroupingStrategy<Context>,
            options: Context.SchedulerOptions?
        ) {
            self.upstream = upstream
            self.strategy = strategy
            self.options = options
        }

        /// Attaches the subscriber to the upstream through a subscription that collects on the strategy's scheduler.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let scheduler: Context
            let interval: Context.SchedulerTimeType.Stride
            let count: Int?
            switch strategy {
            case .byTime(let context, let stride):
                (scheduler, interval, count) = (context, stride, nil)
            case .byTimeOrCount(let context, let stride, let limit):
                require(
                    limit > 0,
                    "CollectByTime: collect(.byTimeOrCount(_:_:_:)) needs a count greater than zero, got \(limit)")
                (scheduler, interval, count) = (context, stride, limit)
            }
            var timerInterval: Context.SchedulerTimeType.Stride? = interval
            if interval <= .zero {
                FailureReporter.current.report(
                    "CollectByTime: collect(_:options:) was given an interval of \(interval); an interval must be "
                        + "positive, so no timer runs and groups go out only when the count is reached and when the "
                        + "upstream finishes."
                )
                timerInterval = nil
            }
            upstream.subscribe(
                CollectByTimeSubscription<Upstream.Output, S, Context>(
                    downstream: subscriber, count: count, scheduler: scheduler, interval: timerInterval,
                    options: options))
        }
    }
}

/// The storage of one `collect(_:options:)` subscription: it holds the state machine under its lock and performs
/// what each transition returns — timers, drains, upstream and downstream calls — after leaving the lock.
private final class CollectByTimeSubscription<Input, Downstream: Subscriber, Context: Scheduler>: Subscriber,
    Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == [Input] {
    typealias Failure = Downstream.Failure

    private let scheduler: Context
    private let interval: Context.SchedulerTimeType.Stride?
    private let options: Context.SchedulerOptions?
    // The lock inside `Locked` guards the state machine.
    private let state: Locked<CollectByTimeStateMachine<Input, Downstream>>

    init(
        downstream: Downstream, count: Int?, scheduler: Context, interval: Context.SchedulerTimeType.Stride?,
        options: Context.SchedulerOptions?
    ) {
        self.scheduler = scheduler
        self.interval = interval
        self.options = options
        state = Locked(CollectByTimeStateMachine(count: count, downstream: downstream))
    }

    func receive(subscription: any Subscription) {
        switch state.withLock({ $0.subscriptionReceived(subscription) }) {
        case .cancel(let extra):
            extra.cancel()
        case .start(let generation, let downstream):
            startTimer(generation: generation)
            downstream.receive(subscription: self)
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        let action = state.withLock { $0.valueReceived(input) }
        if let restart = action.restart {
            restart.cancel?.cancel()
            startTimer(generation: restart.generation)
        }
        if action.scheduleDrain {
            scheduleDrain()
        }
        return action.demand
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let action = state.withLock { $0.completionReceived(completion) }
        action.cancelTimer?.cancel()
        if action.scheduleDrain {
            scheduleDrain()
        }
    }

    func request(_ demand: Subscribers.Demand) {
        let action = state.withLock { $0.requested(demand) }
        if let upstream = action.upstream, action.upstreamDemand > 0 {
            upstream.request(action.upstreamDemand)
        }
        if action.scheduleDrain {
            scheduleDrain()
        }
    }

    func cancel() {
        let action = state.withLock { $0.cancelled() }
        action.timer?.cancel()
        action.upstream?.cancel()
        // The downstream and the collected values are let go here, outside the lock: a deinitialiser among them may
        // call back into this subscription.
        withExtendedLifetime(action.released) {}
    }

    /// Starts the repeating timer of the window that `generation` numbers, unless there is no valid interval.
    private func startTimer(generation: UInt64) {
        guard let interval else { return }
        let started = scheduler.schedule(
            after: scheduler.now.advanced(by: interval),
            interval: interval,
            tolerance: scheduler.minimumTolerance,
            options: options
        ) { [weak self] in
            self?.timerFired(generation: generation)
        }
        let stale = state.withLock { $0.timerStarted(started, generation: generation) }
        stale?.cancel()
    }

    private func timerFired(generation: UInt64) {
        if state.withLock({ $0.timerFired(generation: generation) }) {
            drain(scheduled: false)
        }
    }

    private func scheduleDrain() {
        scheduler.schedule(options: options) { self.drain(scheduled: true) }
    }

    /// Sends what is due — groups while there is demand, then the completion when it is due — as the one emitter.
    private func drain(scheduled: Bool) {
        guard state.withLock({ $0.drainStarted(scheduled: scheduled) }) else { return }
        while true {
            switch state.withLock({ $0.nextDrainStep() }) {
            case .deliver(let group, let downstream):
                let answer = downstream.receive(group)
                state.withLock { $0.delivered(answer: answer) }
            case .complete(let completion, let downstream, let dropped):
                downstream.receive(completion: completion)
                withExtendedLifetime(dropped) {}
                return
            case .idle(let upstream, let demand):
                if let upstream, demand > 0 {
                    upstream.request(demand)
                }
                return
            }
        }
    }

    var description: String { "CollectByTime" }

    var customMirror: Mirror {
        let (downstream, window) = state.withLock { ($0.downstream, $0.window) }
        return Mirror(self, children: ["downstream": downstream as Any, "buffer": window])
    }

    var playgroundDescription: Any { description }
}
