import CadenceSupport

extension Publisher {
    /// Terminates publishing if the upstream publisher exceeds the specified time interval without producing an
    /// element.
    ///
    /// If `customError` is `nil`, the publisher completes normally; if you provide a closure for the `customError`
    /// argument, the upstream publisher is instead terminated upon timeout, and the error is delivered to the
    /// downstream.
    ///
    /// ```swift
    /// let scheduler = VirtualScheduler()
    /// subject.timeout(.ticks(10), scheduler: scheduler, customError: { .slow }).sink(...)
    /// scheduler.advance(by: .ticks(9))     // nothing yet
    /// subject.send(1)                      // at tick 9: the deadline moves to tick 19
    /// scheduler.advance(by: .ticks(10))    // value 1 (at tick 9), then failure(.slow) at tick 19
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The maximum time interval the publisher can go without emitting an element, expressed in the
    ///     time system of the scheduler.
    ///   - scheduler: The scheduler to deliver events on.
    ///   - options: Scheduler options that customize the delivery of elements.
    ///   - customError: A closure that executes if the publisher times out. The publisher sends the failure returned
    ///     by this closure to the subscriber as the reason for termination.
    /// - Returns: A publisher that terminates if the specified interval elapses with no events received from the
    ///   upstream publisher.
    public func timeout<S: Scheduler>(
        _ interval: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil,
        customError: (() -> Failure)? = nil
    ) -> Publishers.Timeout<Self, S> {
        Publishers.Timeout(
            upstream: self, interval: interval, scheduler: scheduler, options: options, customError: customError
        )
    }
}

extension Publishers {
    /// A publisher that terminates if the upstream goes `interval` without producing an element.
    ///
    /// What it does, as Combine does it:
    /// - The deadline is `interval` after the upstream's subscription arrives; the downstream's *first*
    ///   `request(_:)` starts it again from that moment (with a subscriber that requests as it subscribes, the two
    ///   are the same instant), and every value from the upstream starts it again from the value's arrival. Later
    ///   requests and the delivery of values do not move it.
    /// - At the deadline the upstream is cancelled and the downstream gets `.failure(customError())` — or
    ///   `.finished` when there is no `customError` — from the timer's action, on the scheduler. Values still waiting
    ///   for delivery are dropped. The subscription lets go of `customError` once its completion has been delivered
    ///   or it is cancelled, whichever comes first.
    /// - Values and the upstream's completion are not delayed, but they are delivered on the scheduler: each is
    ///   handed to `scheduler.schedule(options:_:)`. On a ``VirtualScheduler`` a value sent while the clock is idle
    ///   reaches the downstream when the clock is next driven, at the same tick. The upstream's completion stops the
    ///   timer at once.
    /// - Demand goes straight through: `request(_:)` is passed to the upstream, and what the downstream returns when
    ///   a value reaches it is requested from the upstream at that moment. `receive(_:)` answers the upstream `.none`.
    /// - The timer is a repeating action on the scheduler (`schedule(after:interval:tolerance:options:_:)`, every
    ///   `interval`, with the scheduler's minimum tolerance) so that it can be cancelled: restarting it, the
    ///   upstream's completion, the time-out itself and `cancel()` take it off the scheduler.
    /// - A scheduler that runs the timer at once, inside the call that schedules it (`ImmediateScheduler`), is a
    ///   misuse Combine traps on: Cadence stops too, naming it, or reports it into the running test and skips that
    ///   run of the timer.
    ///
    /// At the deadline tick itself, what runs first wins: a value that reaches this operator from work the clock runs
    /// before the timer (work scheduled for that tick before the timer was last started) starts a new interval; once
    /// the timer has run, the upstream is cancelled and a later value is ignored.
    ///
    /// Where Cadence decides: a zero or negative `interval` means the deadline has already come: the timer runs as
    /// soon as the scheduler gets to it (on virtual time, at the current tick, before any value delivery scheduled
    /// after it), so the publisher times out at once. The timer then repeats every smallest step of the scheduler's
    /// time (one nanosecond, one tick on virtual time) rather than every `interval`, which a scheduler cannot honour,
    /// and is cancelled when it first runs anyway. Deliveries never overlap, as in ``Publishers/Delay``.
    ///
    /// As in Combine, the upstream's subscription is kept until the upstream's completion has been delivered:
    /// meanwhile `request(_:)` still reaches the upstream, and `cancel()` cancels it and withholds that completion.
    /// A `cancel()` before the upstream's subscription arrived does nothing: that subscription still reaches the
    /// downstream.
    public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// The maximum time interval the publisher can go without emitting an element.
        public let interval: Context.SchedulerTimeType.Stride

        /// The scheduler to deliver events on.
        public let scheduler: Context

        /// Scheduler options that customize the delivery of elements.
        public let options: Context.SchedulerOptions?

        /// A closure that makes the failure to send when the publisher times out; `nil` to finish instead.
        public let customError: (() -> Upstream.Failure)?

        /// Creates a publisher that terminates if the upstream goes `interval` without producing an element.
        public init(
            upstream: Upstream,
            interval: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions?,
            customError: (() -> Publishers.Timeout<Upstream, Context>.Failure)?
        ) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.options = options
            self.customError = customError
        }

        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            upstream.subscribe(Inner(downstream: subscriber, timeout: self))
        }
    }
}

// MARK: - Subscription

extension Publishers.Timeout {
    /// Subscribes to the upstream and is the downstream's subscription; performs what the state machine decides,
    /// outside the lock.
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private typealias StateMachine = TimeoutStateMachine<Output, Failure, Downstream>
        private let state: Locked<StateMachine>
        /// Holds this subscription for the work it scheduled, until it is cancelled.
        private let pending = PendingWork<Inner>()
        /// The threads inside the scheduler's call that starts the timer: a timer that runs there, at once, is a
        /// misuse Combine traps on (it starts the timer under its lock, and the timer takes that lock).
        private let startingTimer = ReentranceCheck()
        private let interval: Context.SchedulerTimeType.Stride
        private let scheduler: Context
        private let options: Context.SchedulerOptions?

        init(downstream: Downstream, timeout: Publishers.Timeout<Upstream, Context>) {
            state = Locked(StateMachine(downstream: downstream, customError: timeout.customError))
            interval = timeout.interval
            scheduler = timeout.scheduler
            options = timeout.options
        }

        // MARK: Upstream

        func receive(subscription: any Subscription) {
            switch state.withLock({ $0.receive(subscription: subscription) }) {
            case .start(let downstream, let restart):
                // The subscription first: on a scheduler that runs actions at once the timer may fire inside
                // `perform`, and its completion must not reach the downstream before the subscription does. (A
                // request made meanwhile restarts the timer; this older generation's timer is then handed back.)
                downstream.receive(subscription: self)
                perform(restart)
            case .cancel(let subscription):
                subscription.cancel()
            }
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            guard let restart = state.withLock({ $0.receive(.value(input)) }) else { return .none }
            perform(restart)
            scheduleDelivery()
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            guard let restart = state.withLock({ $0.receive(.completion(completion)) }) else { return }
            perform(restart)
            scheduleDelivery()
        }

        // MARK: Timer

        /// Cancels the timer the state machine let go of and, when it asks for one, schedules the next.
        private func perform(_ restart: StateMachine.TimerRestart) {
            restart.stale?.cancel()
            guard let generation = restart.generation else { return }
            let repeatEvery = interval > .zero ? interval : .nanoseconds(1)
            let startingTimer = startingTimer
            let timer = startingTimer.inside {
                scheduler.schedule(
                    after: scheduler.now.advanced(by: interval),
                    interval: repeatEvery,
                    tolerance: scheduler.minimumTolerance,
                    options: options
                ) {
                    guard
                        combineRule(
                            !startingTimer.isEnteredByCurrentThread,
                            """
                            Timeout: the scheduler ran the timer at once, inside the call that scheduled it; a timeout \
                            needs a scheduler that runs its timer later (not ImmediateScheduler)
                            """)
                    else { return }
                    self.timerFired(generation: generation)
                }
            }
            state.withLock { $0.timerScheduled(timer, generation: generation) }?.cancel()
        }

        private func timerFired(generation: UInt64) {
            guard let timedOut = state.withLock({ $0.timerFired(generation: generation) }) else { return }
            timedOut.timer?.cancel()
            timedOut.upstream?.cancel()
            withExtendedLifetime(timedOut.dropped) {}
            deliver(timedOut.deliver)
        }

        // MARK: Delivery

        private func scheduleDelivery() {
            scheduler.schedule(
                options: options,
                pending.action(for: self) { owner in
                    owner.deliver(owner.state.withLock { $0.deliveryActionRan() })
                })
        }

        /// Delivers `action`, then every event that fell due meanwhile, until none is left for this caller.
        private func deliver(_ first: StateMachine.DeliveryAction) {
            var action = first
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
                    withExtendedLifetime(state.withLock { $0.endDelivered() }) {}
                    return
                case .timedOut(let downstream):
                    let customError = state.withLock { $0.customError }
                    let completion = customError.map { Subscribers.Completion.failure($0()) } ?? .finished
                    downstream.receive(completion: completion)
                    // The user's closure is let go of here, outside the lock.
                    withExtendedLifetime((customError, state.withLock { $0.endDelivered() })) {}
                    return
                }
            }
        }

        // MARK: Subscription

        func request(_ demand: Subscribers.Demand) {
            let (restart, upstream) = state.withLock { $0.request() }
            if let restart { perform(restart) }
            upstream?.request(demand)
        }

        func cancel() {
            guard let cancelled = state.withLock({ $0.cancel() }) else { return }
            cancelled.timer?.cancel()
            cancelled.upstream?.cancel()
            withExtendedLifetime(cancelled.released) {}
            pending.release()
        }

        var description: String { "Timeout" }

        var customMirror: Mirror { Mirror(self, children: [:]) }

        var playgroundDescription: Any { description }
    }
}
