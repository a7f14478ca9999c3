import CadenceSupport

extension Publisher {
    /// Publishes either the most-recent or first element published by the upstream publisher in the specified time
    /// interval.
    ///
    /// ```swift
    /// scrollOffsets
    ///     .throttle(for: .milliseconds(100), scheduler: scheduler, latest: true)
    ///     .sink { offset in updateHeader(offset) }
    /// ```
    ///
    /// See ``Publishers/Throttle`` for the exact timing, completion and demand.
    ///
    /// - Parameters:
    ///   - interval: The interval at which to find and emit either the most recent or the first element, expressed
    ///     in the time system of the scheduler.
    ///   - scheduler: The scheduler on which to publish elements.
    ///   - latest: A Boolean value that indicates whether to publish the most recent element. If `false`, the
    ///     publisher emits the first element received during the interval.
    /// - Returns: A publisher that emits either the most-recent or first element received during the specified
    ///   interval.
    public func throttle<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride,
        scheduler: S,
        latest: Bool
    ) -> Publishers.Throttle<Self, S> {
        Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
    }
}

extension Publishers {
    /// A publisher that publishes either the most-recent or first element published by the upstream publisher in a
    /// specified time interval.
    ///
    /// Timing, as in Combine, measured on `scheduler`:
    /// - The first value goes out at once — not at the end of a first window — but on the scheduler
    ///   (`schedule(options: nil)`): on a virtual scheduler, at the tick it arrived, when the clock next runs. Values
    ///   arriving before that action runs fall in the same window.
    /// - After a value went out at time `t`, the next goes out at `t + interval`, or at once (on the scheduler) if it
    ///   arrives at `t + interval` or later (`schedule(after:tolerance:options:)` with the minimum tolerance and no
    ///   options). With a 300 ms throttle on a virtual scheduler and a value out at tick 0, a value sent at tick 299
    ///   goes out at tick 300, and one sent at tick 300 goes out at tick 300.
    /// - Within a window, `latest: true` publishes the last value received before the emission runs; `latest: false`
    ///   publishes the first and drops the rest.
    /// - Completion (finished or failure) waits for the window's value: it is delivered right after it, in the same
    ///   scheduled action; with no value waiting, it is delivered at once on the scheduler (`schedule(options: nil)`),
    ///   never synchronously.
    ///
    /// Demand: it requests `.unlimited` from the upstream. A value that opens a window sets aside one unit of the
    /// downstream's demand for the window's emission; a value that arrives while the downstream has no demand and no
    /// window is open is dropped, as in Combine. With `latest: true` a later value in the window replaces the held one
    /// even when no demand is left over: it uses the unit already set aside. (Combine's tests do not record this case;
    /// OpenCombine drops the later value. Cadence follows the documented "most recent element".) `request(.none)` adds
    /// nothing, as in Combine.
    ///
    /// It reads `scheduler.now` when the subscription is made, when the upstream's subscription arrives, and, while
    /// the upstream is subscribed to (not after it completed, nor after `cancel()`), for each value, for the
    /// completion and for each scheduled emission, as Combine does. Cadence reads the time outside its lock, Combine
    /// under it: a value that races a `cancel()` or a completion may still read it.
    ///
    /// The scheduled emission cannot be cancelled (Combine uses the non-cancellable `schedule`); after `cancel()` it
    /// runs and does nothing. Cadence hands the subscription to the downstream before requesting from the upstream
    /// (Combine does not document the order), so a synchronous upstream's values meet the downstream's demand.
    public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The interval in which to find and emit the most recent element.
        public let interval: Context.SchedulerTimeType.Stride

        /// The scheduler on which to publish elements.
        public let scheduler: Context

        /// A Boolean value indicating whether to publish the most recent element.
        ///
        /// If `false`, the publisher emits the first element received during the interval.
        public let latest: Bool

        /// Creates a publisher that publishes either the most-recent or first element published by the upstream
        /// publisher in a specified time interval.
        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
        }

        /// Attaches the subscriber to the upstream through the throttle.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, interval: interval, scheduler: scheduler, latest: latest))
        }
    }
}

extension Publishers.Throttle {
    /// The subscriber to the upstream and the subscription handed to the downstream: a thin shell that runs
    /// ``ThrottleStateMachine`` under its lock and performs what each transition returns after leaving it.
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let scheduler: Context
        private let state: Locked<ThrottleStateMachine<Downstream, Context.SchedulerTimeType>>
        /// Holds this subscription for the work it scheduled, until it is cancelled.
        private let pending = PendingWork<Inner>()

        init(downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.scheduler = scheduler
            state = Locked(ThrottleStateMachine(downstream: downstream, interval: interval, latest: latest))
            // Combine reads the scheduler's time when it makes the subscriber, when the subscription arrives and when
            // the completion does, without using those readings; a scheduler that records its calls sees the same
            // calls here.
            _ = scheduler.now
        }

        func receive(subscription: any Subscription) {
            guard let downstream = state.withLock({ $0.receive(subscription: subscription) }) else {
                subscription.cancel()
                return
            }
            _ = scheduler.now
            downstream.receive(subscription: self)
            if state.withLock({ $0.isSubscribed }) {
                subscription.request(.unlimited)
            }
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            // The time is read only while subscribed, as Combine does; the state decides again under the lock.
            guard state.withLock({ $0.isSubscribed }) else { return .none }
            let now = scheduler.now
            switch state.withLock({ $0.receive(input, now: now) }) {
            case .none(let released):
                withExtendedLifetime(released) {}
            case .scheduleEmission(at: nil):
                scheduler.schedule(options: nil, pending.action(for: self) { $0.emissionDue() })
            case .scheduleEmission(at: let date?):
                scheduler.schedule(
                    after: date, tolerance: scheduler.minimumTolerance, options: nil,
                    pending.action(for: self) { $0.emissionDue() }
                )
            }
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            guard state.withLock({ $0.isSubscribed }) else { return }
            _ = scheduler.now // read, and not used, as Combine does when it takes the completion
            if state.withLock({ $0.receive(completion: completion) }) {
                scheduler.schedule(options: nil, pending.action(for: self) { $0.emissionDue() })
            }
        }

        private func emissionDue() {
            // After the upstream completed no later value needs the time of this one: Combine does not read it then.
            let now = state.withLock { $0.isSubscribed } ? scheduler.now : nil
            guard let (downstream, value) = state.withLock({ $0.emissionDue(now: now) }) else { return }
            var more = Subscribers.Demand.none
            if let value {
                more = downstream.receive(value)
            }
            if let (downstream, completion) = state.withLock({ $0.emissionDelivered(adding: more) }) {
                downstream.receive(completion: completion)
            }
        }

        func request(_ demand: Subscribers.Demand) {
            state.withLock { $0.add(demand: demand) }
        }

        func cancel() {
            let cancellation = state.withLock { $0.cancel() }
            cancellation.upstream?.cancel()
            withExtendedLifetime(cancellation.released) {}
            pending.release()
        }

        var description: String { "Throttle" }

        /// No children, as in Combine.
        var customMirror: Mirror { Mirror(self, children: [:]) }

        var playgroundDescription: Any { description }
    }
}
