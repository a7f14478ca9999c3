import CadenceSupport

extension Publisher {
    /// Delays delivery of all output to the downstream receiver by a specified amount of time on a particular
    /// scheduler.
    ///
    /// The delay affects the delivery of elements and completion, but not of the original subscription.
    ///
    /// ```swift
    /// let scheduler = VirtualScheduler()
    /// subject.delay(for: .ticks(5), scheduler: scheduler).sink { print($0) }
    /// subject.send(1)                      // at tick 0
    /// scheduler.advance(by: .ticks(4))     // nothing yet
    /// scheduler.advance(by: .ticks(1))     // prints 1, at tick 5
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The amount of time to delay.
    ///   - tolerance: The allowed tolerance in firing delayed events; the scheduler's `minimumTolerance` when nil.
    ///   - scheduler: The scheduler to deliver the delayed events.
    ///   - options: Options relevant to the scheduler's behavior.
    /// - Returns: A publisher that delays delivery of elements and completion to the downstream receiver.
    public func delay<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride,
        tolerance: S.SchedulerTimeType.Stride? = nil,
        scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.Delay<Self, S> {
        Publishers.Delay(
            upstream: self,
            interval: interval,
            tolerance: tolerance ?? scheduler.minimumTolerance,
            scheduler: scheduler,
            options: options
        )
    }
}

extension Publishers {
    /// A publisher that delays delivery of elements and completion to the downstream receiver.
    ///
    /// What it does, as Combine does it:
    /// - The downstream gets its subscription at once, when the upstream's arrives — not on the scheduler.
    /// - Each value, and the completion (finished *or* failed: a failure is delayed like everything else), is handed
    ///   to the scheduler to run at `scheduler.now` + `interval`, with `tolerance` and `options`, and reaches the
    ///   downstream from that scheduled action, in the order the upstream sent them. On a ``VirtualScheduler`` a
    ///   value sent at tick t arrives at tick t + interval exactly.
    /// - Demand goes straight through: the downstream's `request(_:)` is passed to the upstream, and the demand the
    ///   downstream returns when a delayed value reaches it is requested from the upstream at that moment (not when
    ///   the value left the upstream) — even when the upstream has completed meanwhile, while its completion waits
    ///   for its turn; a `request(_:)` after the upstream completed is not passed on. `receive(_:)` answers the
    ///   upstream `.none`.
    /// - A `cancel()` before the upstream's subscription arrived does nothing: that subscription still reaches the
    ///   downstream. A `cancel()` after the upstream completed does not cancel the upstream.
    /// - The subscription has no `description` or `customMirror` of its own: Combine's has none.
    /// - A zero or negative `interval` asks for a date that is now or already past: each event runs as soon as the
    ///   scheduler gets to it (on virtual time, at the current tick when the clock is next driven) — never
    ///   synchronously inside the upstream's call.
    ///
    /// - The subscription keeps its downstream for as long as it lives, after a cancel or the completion too; the
    ///   downstream goes when the upstream and the downstream let go of the subscription.
    ///
    /// Where Cadence decides: after `cancel()` nothing reaches the downstream — not even a completion the upstream had
    /// already sent (Combine still delivers that one). Actions already on the scheduler cannot be taken back (the
    /// `Scheduler` protocol hands back nothing for a one-shot action); they stay pending until their date and then do
    /// nothing, and — unlike Combine's — no longer hold the subscription, so that a test scheduler nobody advances
    /// any more does not keep it alive. Deliveries never overlap: when the scheduler runs two delivery actions at
    /// once (a concurrent queue) or one inside another (an immediate scheduler), the second leaves its event to the
    /// first, which delivers it next, in arrival order.
    public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// The amount of time to delay.
        public let interval: Context.SchedulerTimeType.Stride

        /// The allowed tolerance in firing delayed events.
        public let tolerance: Context.SchedulerTimeType.Stride

        /// The scheduler to deliver the delayed events.
        public let scheduler: Context

        /// Options relevant to the scheduler's behavior.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that delays delivery of elements and completion to the downstream receiver.
        public init(
            upstream: Upstream,
            interval: Context.SchedulerTimeType.Stride,
            tolerance: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions? = nil
        ) {
            self.upstream = upstream
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            upstream.subscribe(Inner(downstream: subscriber, delay: self))
        }
    }
}

// MARK: - Subscription

extension Publishers.Delay {
    /// Subscribes to the upstream and is the downstream's subscription; performs what the state machine decides,
    /// outside the lock.
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private typealias StateMachine = DelayStateMachine<Output, Failure, Downstream>
        private let state: Locked<StateMachine>
        /// As in Combine, the subscription keeps its downstream for its whole life, after a cancel or the completion
        /// too; the state says whether it may still be called. It goes when the upstream and the downstream let go
        /// of the subscription, never under its lock.
        private let downstream: Downstream
        /// Holds this subscription for the work it scheduled, until it is cancelled.
        private let pending = PendingWork<Inner>()
        private let interval: Context.SchedulerTimeType.Stride
        private let tolerance: Context.SchedulerTimeType.Stride
        private let scheduler: Context
        private let options: Context.SchedulerOptions?

        init(downstream: Downstream, delay: Publishers.Delay<Upstream, Context>) {
            state = Locked(StateMachine(downstream: downstream))
            self.downstream = downstream
            interval = delay.interval
            tolerance = delay.tolerance
            scheduler = delay.scheduler
            options = delay.options
        }

        // MARK: Upstream

        func receive(subscription: any Subscription) {
            switch state.withLock({ $0.receive(subscription: subscription) }) {
            case .forward(let downstream):
                downstream.receive(subscription: self)
            case .cancel(let subscription):
                subscription.cancel()
            }
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            if state.withLock({ $0.receive(.value(input)) }) {
                scheduleDelivery()
            }
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            if state.withLock({ $0.receive(.completion(completion)) }) {
                scheduleDelivery()
            }
        }

        private func scheduleDelivery() {
            scheduler.schedule(
                after: scheduler.now.advanced(by: interval), tolerance: tolerance, options: options,
                pending.action(for: self) { $0.deliveryActionRan() }
            )
        }

        /// Delivers the due events, one at a time, until none is left for this caller.
        private func deliveryActionRan() {
            var action = state.withLock { $0.deliveryActionRan() }
            while true {
                switch action {
                case .none:
                    return
                case .value(let downstream, let value):
                    let demand = downstream.receive(value)
                    let (upstream, next) = state.withLock { $0.valueDelivered(demand: demand) }
                    upstream?.request(demand)
                    action = next
                case .completion(let downstream, let completion):
                    downstream.receive(completion: completion)
                    return
                }
            }
        }

        // MARK: Subscription

        func request(_ demand: Subscribers.Demand) {
            state.withLock { $0.request() }?.request(demand)
        }

        func cancel() {
            guard let (upstream, released) = state.withLock({ $0.cancel() }) else { return }
            upstream?.cancel()
            withExtendedLifetime(released) {}
            pending.release()
        }
    }
}
