import CadenceSupport

extension Publisher {
    /// Publishes elements only after a specified time interval elapses between events.
    ///
    /// ```swift
    /// searchField.$text
    ///     .debounce(for: .milliseconds(300), scheduler: scheduler)
    ///     .sink { query in search(query) }
    /// ```
    ///
    /// Each value waits `dueTime` on `scheduler`; a value that arrives meanwhile replaces it and starts the wait
    /// again. See ``Publishers/Debounce`` for completion and demand.
    ///
    /// - Parameters:
    ///   - dueTime: The time the publisher should wait before publishing an element.
    ///   - scheduler: The scheduler on which this publisher delivers elements.
    ///   - options: Scheduler options that customize this publisher's delivery of elements.
    /// - Returns: A publisher that publishes events only after a specified time elapses.
    public func debounce<S: Scheduler>(
        for dueTime: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.Debounce<Self, S> {
        Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that publishes elements only after a specified time interval elapses between events.
    ///
    /// Timing, as in Combine, measured on `scheduler`:
    /// - A value is due `dueTime` after it arrived (`scheduler.now` when it arrived, advanced by `dueTime`), if no
    ///   other value arrived meanwhile; it is delivered in that timer's action, on the scheduler. A value that arrives
    ///   before then replaces it and restarts the wait: with a 300 ms debounce on a virtual scheduler, a value sent at
    ///   tick 0 goes out at tick 300, and one sent at tick 299 as well replaces it and goes out at tick 599.
    /// - Each wait is a repeating timer (`schedule(after:interval:tolerance:options:)` with `interval: dueTime`, the
    ///   scheduler's minimum tolerance and `options`), as in Combine, so that it can be cancelled: a newer value, the
    ///   completion and `cancel()` cancel it, and it is cancelled when it fires. A due time of zero or less asks for
    ///   a repeat interval of one nanosecond instead, which never comes into play.
    /// - Completion (finished or failure) drops a value still waiting — it is not delivered — cancels its timer, and
    ///   is delivered on the scheduler (`schedule(options: nil)`), not synchronously: on a virtual scheduler, at the
    ///   tick the upstream completed, when the clock next runs.
    ///
    /// Demand: it requests `.unlimited` from the upstream. A value that falls due while the downstream has no demand
    /// is dropped, as in Combine: it is not kept for a later request.
    ///
    /// Cadence hands the subscription to the downstream before requesting from the upstream (Combine does not
    /// document the order), so a synchronous upstream's values meet the downstream's demand.
    public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The amount of time the publisher should wait before publishing an element.
        public let dueTime: Context.SchedulerTimeType.Stride

        /// The scheduler on which this publisher delivers elements.
        public let scheduler: Context

        /// Scheduler options that customize this publisher's delivery of elements.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that publishes elements only after a specified time interval elapses between events.
        public init(
            upstream: Upstream,
            dueTime: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions?
        ) {
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches the subscriber to the upstream through the debounce.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, dueTime: dueTime, scheduler: scheduler, options: options))
        }
    }
}

extension Publishers.Debounce {
    /// The subscriber to the upstream and the subscription handed to the downstream: a thin shell that runs
    /// ``DebounceStateMachine`` under its lock and performs what each transition returns after leaving it.
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let dueTime: Context.SchedulerTimeType.Stride
        private let scheduler: Context
        private let options: Context.SchedulerOptions?
        private let state: Locked<DebounceStateMachine<Downstream>>

        init(
            downstream: Downstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions?
        ) {
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
            state = Locked(DebounceStateMachine(downstream: downstream))
        }

        func receive(subscription: any Subscription) {
            guard let downstream = state.withLock({ $0.receive(subscription: subscription) }) else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self)
            if state.withLock({ $0.isSubscribed }) {
                subscription.request(.unlimited)
            }
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            let action = state.withLock { $0.receive(input) }
            guard case .scheduleTimer(let generation, let stale, let replaced) = action else { return .none }
            withExtendedLifetime(replaced) {}
            stale?.cancel()
            let due = scheduler.now.advanced(by: dueTime)
            // The repeat interval never comes into play (the timer is cancelled when it fires), but must be positive.
            let interval: Context.SchedulerTimeType.Stride = dueTime > 0 ? dueTime : .nanoseconds(1)
            let timer = scheduler.schedule(
                after: due, interval: interval, tolerance: scheduler.minimumTolerance, options: options
            ) { [self] in
                timerFired(generation: generation)
            }
            state.withLock { $0.timerScheduled(timer, generation: generation) }?.cancel()
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            let action = state.withLock { $0.receive(completion: completion) }
            guard case .scheduleCompletion(let stale, let dropped) = action else { return }
            withExtendedLifetime(dropped) {}
            stale?.cancel()
            scheduler.schedule(options: nil) { [self] in
                guard let (downstream, completion) = state.withLock({ $0.completionDue() }) else { return }
                downstream.receive(completion: completion)
            }
        }

        private func timerFired(generation: UInt64) {
            let firing = state.withLock { $0.timerFired(generation: generation) }
            firing.timer?.cancel()
            withExtendedLifetime(firing.dropped) {}
            guard let (downstream, value) = firing.delivery else { return }
            let more = downstream.receive(value)
            if more > 0 {
                state.withLock { $0.add(demand: more) }
            }
        }

        func request(_ demand: Subscribers.Demand) {
            state.withLock { $0.add(demand: demand) }
        }

        func cancel() {
            let cancellation = state.withLock { $0.cancel() }
            cancellation.timer?.cancel()
            cancellation.upstream?.cancel()
            withExtendedLifetime(cancellation.released) {}
        }

        var description: String { "Debounce" }

        var customMirror: Mirror {
            let (downstream, demand, value) = state.withLock { ($0.downstream, $0.demand, $0.pendingValue) }
            return Mirror(
                self,
                children: [
                    "downstream": downstream as Any,
                    "downstreamDemand": demand,
                    "currentValue": value as Any,
                ])
        }

        var playgroundDescription: Any { description }
    }
}
