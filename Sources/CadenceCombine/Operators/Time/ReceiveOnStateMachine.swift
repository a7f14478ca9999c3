/// ReceiveOn's state, with no side effects: each transition says what the caller must do outside the lock.
///
/// Values and the completion hop onto the scheduler; what runs there asks the state again whether it may still be
/// delivered, so that nothing reaches the downstream after `cancel()`.
struct ReceiveOnStateMachine<Downstream> {
    private enum Status {
        case awaitingSubscription(Downstream)
        case active(any Subscription, Downstream)
        /// The upstream completed and the completion is on its way through the scheduler, behind the values sent
        /// before it; those still go out.
        case completing(Downstream)
        case terminal
    }

    private var status: Status

    init(downstream: Downstream) {
        status = .awaitingSubscription(downstream)
    }

    /// The downstream to hand the operator to as its subscription, or nil when the caller must cancel
    /// `subscription` (a second one, or one after cancel).
    mutating func receive(subscription: any Subscription) -> Downstream? {
        guard case .awaitingSubscription(let downstream) = status else { return nil }
        status = .active(subscription, downstream)
        return downstream
    }

    /// Whether a value from the upstream is to be scheduled for delivery.
    func receiveValue() -> Bool {
        if case .active = status { return true }
        return false
    }

    /// Whether the completion is to be scheduled for delivery (after the values before it).
    mutating func receiveCompletion() -> Bool {
        guard case .active(_, let downstream) = status else { return false }
        status = .completing(downstream)
        return true
    }

    /// The upstream to pass a request on to, if the subscription is live.
    func request() -> (any Subscription)? {
        if case .active(let upstream, _) = status { return upstream }
        return nil
    }

    /// The upstream to cancel and the downstream to release, both outside the lock.
    mutating func cancel() -> (upstream: (any Subscription)?, released: Downstream?) {
        defer { status = .terminal }
        switch status {
        case .active(let upstream, let downstream): return (upstream, downstream)
        case .awaitingSubscription(let downstream), .completing(let downstream): return (nil, downstream)
        case .terminal: return (nil, nil)
        }
    }

    /// On the scheduler: the downstream to hand a value to, unless the subscription was cancelled meanwhile.
    func deliverValue() -> Downstream? {
        switch status {
        case .active(_, let downstream), .completing(let downstream): downstream
        case .awaitingSubscription, .terminal: nil
        }
    }

    /// On the scheduler: the downstream to complete, which the state lets go of, unless the subscription was
    /// cancelled meanwhile.
    mutating func deliverCompletion() -> Downstream? {
        guard case .completing(let downstream) = status else { return nil }
        status = .terminal
        return downstream
    }
}
