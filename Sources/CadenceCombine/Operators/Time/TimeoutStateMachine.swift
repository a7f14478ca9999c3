/// Timeout's state, with no side effects: each transition says what the caller must do outside the lock.
///
/// Every timer carries the generation it was started for; starting, stopping or firing moves the generation on,
/// so an older timer that still runs (it was being cancelled on another thread) does nothing.
struct TimeoutStateMachine<Output, Failure: Error, Downstream> {
    /// The timer work a transition asks for, outside the lock: a timer to cancel, and the generation of a new one to
    /// schedule (nil: none).
    struct TimerRestart {
        var stale: (any Cancellable)?
        var generation: UInt64?
    }

    enum Event {
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
    }

    enum SubscriptionAction {
        /// Start the timer, then hand the operator to the downstream as its subscription.
        case start(Downstream, TimerRestart)
        /// A second subscription, or one after cancel: cancel it.
        case cancel(any Subscription)
    }

    enum DeliveryAction {
        case none
        case value(Downstream, Output)
        case completion(Downstream, Subscribers.Completion<Failure>)
        /// Send `.failure(customError())`, or `.finished`.
        case timedOut(Downstream)
    }

    /// What a timer that fired in time leaves to do: cancel the timer and the upstream, release the dropped
    /// values, deliver.
    struct TimedOut {
        var timer: (any Cancellable)?
        var upstream: (any Subscription)?
        var dropped: RingBuffer<Entry>
        var deliver: DeliveryAction
    }

    enum Entry {
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
        case timedOut
    }

    private var downstream: Downstream?
    private var upstream = SingleUpstreamLink.awaiting
    private var deliveries = ScheduledDeliveryQueue<Entry>()
    private var timer: (any Cancellable)?
    private var generation: UInt64 = 0
    private var hasRequested = false
    /// The upstream completed; its subscription is kept until that completion has been delivered, as in Combine:
    /// meanwhile requests still reach the upstream, and a cancel cancels it.
    private var upstreamCompleted = false

    /// The user's closure for the time-out failure: let go of once the subscription has ended (by the caller of
    /// ``endDelivered()`` or of ``cancel()``, outside the lock), so that it does not outlive the subscription.
    private(set) var customError: (() -> Failure)?

    init(downstream: Downstream, customError: (() -> Failure)? = nil) {
        self.downstream = downstream
        self.customError = customError
    }

    /// The completion (or the time-out) has been delivered: hand back the user's closure to release.
    mutating func endDelivered() -> (() -> Failure)? {
        defer { customError = nil }
        return customError
    }

    mutating func receive(subscription: any Subscription) -> SubscriptionAction {
        guard let downstream, upstream.attach(subscription) else { return .cancel(subscription) }
        return .start(downstream, restartTimer())
    }

    /// nil when the event is ignored; otherwise the timer work to do, after which the caller schedules one
    /// delivery action.
    mutating func receive(_ event: Event) -> TimerRestart? {
        guard downstream != nil, !upstreamCompleted, upstream.subscription != nil else { return nil }
        switch event {
        case .value(let value):
            deliveries.append(.value(value))
            return restartTimer()
        case .completion(let completion):
            upstreamCompleted = true
            deliveries.append(.completion(completion))
            return stopTimer()
        }
    }

    /// The timer work for a request (the first one restarts the timer) and the upstream to pass it to.
    mutating func request() -> (restart: TimerRestart?, upstream: (any Subscription)?) {
        guard downstream != nil, let subscription = upstream.subscription else { return (nil, nil) }
        guard !hasRequested, !upstreamCompleted else { return (nil, subscription) }
        hasRequested = true
        return (restartTimer(), subscription)
    }

    /// The caller scheduled the timer of `generation`: keeps it, or hands it back to be cancelled when it is
    /// already stale.
    mutating func timerScheduled(_ timer: any Cancellable, generation: UInt64) -> (any Cancellable)? {
        guard generation == self.generation, downstream != nil else { return timer }
        self.timer = timer
        return nil
    }

    /// The timer of `generation` ran: nil when it is stale, otherwise the time-out to carry out.
    mutating func timerFired(generation: UInt64) -> TimedOut? {
        guard generation == self.generation, downstream != nil else { return nil }
        let timer = stopTimer().stale
        let upstream = upstream.close()
        let (now, dropped) = deliveries.replaceAll(with: .timedOut)
        return TimedOut(timer: timer, upstream: upstream, dropped: dropped, deliver: action(for: now))
    }

    mutating func deliveryActionRan() -> DeliveryAction {
        guard downstream != nil else { return .none }
        return action(for: deliveries.actionRan())
    }

    /// A value reached the downstream, which answered `demand`: the upstream to ask for it (if any), and what to
    /// deliver next.
    mutating func valueDelivered(demand: Subscribers.Demand) -> (request: (any Subscription)?, next: DeliveryAction) {
        guard downstream != nil else { return (nil, .none) }
        let request = demand > 0 ? upstream.subscription : nil
        return (request, action(for: deliveries.deliveryEnded()))
    }

    /// Ends everything: the timer and upstream to cancel, and what to release outside the lock.
    ///
    /// As in Combine, a cancel before the upstream's subscription arrived does nothing — it returns nil, and that
    /// subscription still reaches the downstream.
    mutating func cancel() -> (
        timer: (any Cancellable)?, upstream: (any Subscription)?,
        released: (Downstream?, RingBuffer<Entry>, (() -> Failure)?)
    )? {
        guard !upstream.isAwaiting else { return nil }
        let timer = stopTimer().stale
        let released = downstream
        // Once the subscription has ended, the closure belongs to the delivery of its end (`endDelivered()`).
        let closure = downstream == nil ? nil : customError
        if downstream != nil { customError = nil }
        downstream = nil
        return (timer, upstream.close(), (released, deliveries.removeAll(), closure))
    }

    private mutating func restartTimer() -> TimerRestart {
        var restart = stopTimer()
        restart.generation = generation
        return restart
    }

    private mutating func stopTimer() -> TimerRestart {
        generation &+= 1
        defer { timer = nil }
        return TimerRestart(stale: timer, generation: nil)
    }

    private mutating func action(for entry: Entry?) -> DeliveryAction {
        guard let downstream, let entry else { return .none }
        switch entry {
        case .value(let value):
            return .value(downstream, value)
        case .completion(let completion):
            self.downstream = nil
            _ = upstream.close()
            return .completion(downstream, completion)
        case .timedOut:
            self.downstream = nil
            return .timedOut(downstream)
        }
    }
}
