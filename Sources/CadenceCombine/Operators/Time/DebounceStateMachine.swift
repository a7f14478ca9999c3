/// What one debounce subscription knows, and how each event changes it: no lock, no calls out.
///
/// Every transition is `mutating` and returns what the caller must do once it has left the lock — schedule a timer,
/// cancel one, deliver a value or a completion — together with anything it lets go of (a replaced value, the
/// downstream), so that those are released outside the lock too.
///
/// Each value the upstream sends starts a new *generation*: its timer fires for that generation only, and a timer
/// of an older generation that fires anyway (it was cancelled too late, or the scheduler cannot cancel) does nothing.
struct DebounceStateMachine<Downstream: Subscriber> {
    typealias Value = Downstream.Input
    typealias Failure = Downstream.Failure

    private enum Phase {
        case awaitingSubscription(Downstream)
        case subscribed(upstream: any Subscription, downstream: Downstream)
        /// The upstream completed; the completion waits for its scheduled delivery.
        case completing(Downstream, Subscribers.Completion<Failure>)
        case finished
    }

    private var phase: Phase
    /// What the downstream requested and has not received yet.
    private(set) var demand = Subscribers.Demand.none
    /// The latest value, waiting for `dueTime` of silence.
    private(set) var pendingValue: Value?
    /// The generation of `pendingValue`; every value received starts a new one.
    private(set) var generation: UInt64 = 0
    /// The repeating timer of the current generation, once the scheduler handed it back.
    private var timer: (any Cancellable)?

    init(downstream: Downstream) {
        phase = .awaitingSubscription(downstream)
    }

    /// The downstream, while the subscription still has one.
    var downstream: Downstream? {
        switch phase {
        case .awaitingSubscription(let downstream), .subscribed(_, let downstream), .completing(let downstream, _):
            return downstream
        case .finished:
            return nil
        }
    }

    /// Whether the upstream's subscription is held and the upstream has not completed.
    var isSubscribed: Bool {
        if case .subscribed = phase { return true }
        return false
    }

    // MARK: Upstream events

    /// The upstream's subscription arrived: hand back the downstream to give the subscription to, or `nil` when the
    /// caller must cancel the new subscription (one arrived already, or the subscription was cancelled).
    mutating func receive(subscription: any Subscription) -> Downstream? {
        guard case .awaitingSubscription(let downstream) = phase else { return nil }
        phase = .subscribed(upstream: subscription, downstream: downstream)
        return downstream
    }

    enum ValueAction {
        /// Nothing to do: the value arrived outside a live subscription.
        case ignore
        /// Schedule a timer for `generation`, after cancelling the timer of the value it replaces (if any).
        case scheduleTimer(generation: UInt64, cancelling: (any Cancellable)?, replaced: Value?)
    }

    /// A value arrived: it replaces the pending one and restarts the wait.
    mutating func receive(_ value: Value) -> ValueAction {
        guard isSubscribed else { return .ignore }
        generation &+= 1
        let replaced = pendingValue
        pendingValue = value
        let stale = timer
        timer = nil
        return .scheduleTimer(generation: generation, cancelling: stale, replaced: replaced)
    }

    /// The scheduler handed back the timer it scheduled for `generation`: keep it, or hand it back for the caller to
    /// cancel when it is no longer needed (a newer value arrived, the timer already fired, or the subscription ended
    /// while it was being scheduled).
    mutating func timerScheduled(
        _ scheduled: any Cancellable, generation scheduledGeneration: UInt64
    )
        -> (any Cancellable)?
    {
        guard isSubscribed, scheduledGeneration == generation, pendingValue != nil else { return scheduled }
        timer = scheduled
        return nil
    }

    enum CompletionAction {
        case ignore
        /// Cancel the timer, let the pending value go, and schedule the completion's delivery.
        case scheduleCompletion(cancelling: (any Cancellable)?, dropped: Value?)
    }

    /// The upstream completed: a value still waiting is dropped, as in Combine, and the completion is scheduled.
    mutating func receive(completion: Subscribers.Completion<Failure>) -> CompletionAction {
        guard case .subscribed(_, let downstream) = phase else { return .ignore }
        phase = .completing(downstream, completion)
        let dropped = pendingValue
        pendingValue = nil
        let stale = timer
        timer = nil
        return .scheduleCompletion(cancelling: stale, dropped: dropped)
    }

    // MARK: Scheduled events

    /// What a timer's firing asks of the caller.
    struct Firing {
        /// The timer to cancel so that it does not repeat.
        var timer: (any Cancellable)?
        /// The value to deliver and whom to deliver it to, when the downstream has demand for it.
        var delivery: (downstream: Downstream, value: Value)?
        /// A due value the downstream had no demand for: let go of it.
        var dropped: Value?
    }

    /// The timer of `firedGeneration` fired. When no value arrived since, the pending value is due: it goes to the
    /// downstream if it has demand for it, and is dropped otherwise (Combine does not keep it for later demand).
    mutating func timerFired(generation firedGeneration: UInt64) -> Firing {
        guard case .subscribed(_, let downstream) = phase, firedGeneration == generation,
            let value = pendingValue
        else {
            return Firing()
        }
        pendingValue = nil
        let firing = timer
        timer = nil
        guard demand > 0 else { return Firing(timer: firing, dropped: value) }
        demand -= 1
        return Firing(timer: firing, delivery: (downstream, value))
    }

    /// The scheduled completion is due: hand back what to deliver, unless the subscription was cancelled meanwhile.
    mutating func completionDue() -> (downstream: Downstream, completion: Subscribers.Completion<Failure>)? {
        guard case .completing(let downstream, let completion) = phase else { return nil }
        phase = .finished
        return (downstream, completion)
    }

    // MARK: Downstream events

    /// The downstream asked for more values (directly, or by returning demand from `receive(_:)`).
    mutating func add(demand additional: Subscribers.Demand) {
        guard isSubscribed else { return }
        demand += additional
    }

    /// What cancelling lets go of; the caller cancels `upstream` and `timer` outside the lock.
    struct Cancellation {
        var upstream: (any Subscription)?
        var timer: (any Cancellable)?
        var released: (downstream: Downstream?, value: Value?)
    }

    /// The downstream cancelled: nothing is delivered from now on.
    ///
    /// As in Combine, a cancel before the upstream's subscription arrived does nothing: that subscription still
    /// reaches the downstream.
    mutating func cancel() -> Cancellation {
        if case .awaitingSubscription = phase { return Cancellation(released: (nil, nil)) }
        var cancellation = Cancellation(released: (downstream, pendingValue))
        if case .subscribed(let upstream, _) = phase {
            cancellation.upstream = upstream
        }
        cancellation.timer = timer
        phase = .finished
        pendingValue = nil
        timer = nil
        return cancellation
    }
}
