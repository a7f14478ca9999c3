import CadenceSupport

extension Publisher {
    /// Measures and emits the time interval between events received from an upstream publisher.
    ///
    /// The output type of the returned publisher is the time interval of the provided scheduler. This operator uses
    /// the provided scheduler's `now` property to measure intervals between events.
    ///
    /// ```swift
    /// let scheduler = VirtualScheduler()
    /// subject.measureInterval(using: scheduler).sink { print($0) }   // subscribed at tick 0
    /// scheduler.advance(by: .ticks(3)); subject.send("a")             // prints "3 ticks"
    /// scheduler.advance(by: .ticks(5)); subject.send("b")             // prints "5 ticks"
    /// ```
    ///
    /// - Parameters:
    ///   - scheduler: A scheduler to use for tracking the timing of events.
    ///   - options: Options that customize the delivery of elements.
    /// - Returns: A publisher that emits elements representing the time interval between the elements it receives.
    public func measureInterval<S: Scheduler>(
        using scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.MeasureInterval<Self, S> {
        Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
    }
}

extension Publishers {
    /// A publisher that measures and emits the time interval between events received from an upstream publisher.
    ///
    /// What it does, as Combine does it:
    /// - It reads `scheduler.now` when the upstream's subscription arrives and at each value; each value is replaced
    ///   by the distance from the previous reading, so the first value measures the time since the subscription.
    ///   A scheduler whose clock went backwards yields a negative interval.
    /// - Nothing is scheduled: each interval reaches the downstream at once, on the thread the value arrived on.
    ///   `options` is accepted for Combine's signature and not used (Combine's `MeasureInterval` keeps no options).
    /// - Demand goes straight through: `request(_:)` is passed to the upstream, and a positive demand the downstream
    ///   returns for an interval is passed on with `request(_:)` — `receive(_:)` itself answers the upstream `.none`.
    /// - The completion, finished or failed, goes straight through.
    /// - A `cancel()` before the upstream's subscription arrived does nothing: that subscription still reaches the
    ///   downstream.
    /// - The subscription keeps its downstream for as long as it lives, after a cancel or the completion too; the
    ///   downstream goes when the upstream and the downstream let go of the subscription.
    ///
    /// - A value that arrives after `cancel()` or the completion does not read `scheduler.now`.
    ///
    /// Where Cadence decides: `scheduler.now` is read outside the lock (Combine reads it under its lock), so a value
    /// that races a `cancel()` may still read it once.
    public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Context.SchedulerTimeType.Stride
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The scheduler used for tracking the timing of events.
        public let scheduler: Context

        /// Creates a publisher that measures and emits the time interval between events received from an upstream
        /// publisher.
        public init(upstream: Upstream, scheduler: Context) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, S.Input == Context.SchedulerTimeType.Stride {
            upstream.subscribe(Inner(downstream: subscriber, scheduler: scheduler))
        }
    }
}

// MARK: - Subscription

extension Publishers.MeasureInterval {
    /// Subscribes to the upstream and is the downstream's subscription: holds a ``MeasureIntervalStateMachine`` under
    /// its lock and does what each transition returns after leaving it. The scheduler's `now` is read outside the
    /// lock.
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Context.SchedulerTimeType.Stride, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let state: Locked<MeasureIntervalStateMachine<Context.SchedulerTimeType, Downstream>>
        private let scheduler: Context
        /// As in Combine, the subscription keeps its downstream for its whole life, after a cancel or the completion
        /// too; the state says whether it may still be called. It goes when the upstream and the downstream let go of the
        /// subscription, never under the lock.
        private let downstream: Downstream

        init(downstream: Downstream, scheduler: Context) {
            state = Locked(MeasureIntervalStateMachine(downstream: downstream))
            self.downstream = downstream
            self.scheduler = scheduler
        }

        func receive(subscription: any Subscription) {
            let now = scheduler.now
            guard let downstream = state.withLock({ $0.receive(subscription: subscription, at: now) }) else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self)
        }

        func receive(_: Input) -> Subscribers.Demand {
            guard state.withLock({ $0.isMeasuring }) else { return .none }
            let now = scheduler.now
            guard let (downstream, interval, upstream) = state.withLock({ $0.receiveValue(at: now) }) else {
                return .none
            }
            let demand = downstream.receive(interval)
            if demand > 0 {
                upstream.request(demand)
            }
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            state.withLock { $0.receiveCompletion() }?.receive(completion: completion)
        }

        func request(_ demand: Subscribers.Demand) {
            state.withLock { $0.request() }?.request(demand)
        }

        func cancel() {
            let (upstream, released) = state.withLock { $0.cancel() }
            upstream?.cancel()
            withExtendedLifetime(released) {}
        }

        var description: String { "MeasureInterval" }

        var customMirror: Mirror { Mirror(self, children: [:]) }

        var playgroundDescription: Any { description }
    }
}
