/// ReceiveOn's state, with no side effects: each transition says what the caller must do outside the lock.
///
/// Values and the completion hop onto the scheduler; what runs there asks the state again whether it may still be
/// delivered, so that nothing reaches the downstream after `cancel()`.
struct ReceiveOnStateMachine<Downstream> {
    private enum Status {
        case awaitingSubscription(Downstream)
        case active(any Subscription, Downstream)
        /// The upstream completed and the completion is on its way through the scheduler, behind the values sent
        /// before it; those still go out, and what the downstream answers them still reaches the upstream.
        case completing(any Subscription, Downstream)
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
        guard case .active(let upstream, let downstream) = status else { return false }
        status = .completing(upstream, downstream)
        return true
    }

    /// The upstream to pass the downstream's `request(_:)` on to: none once the upstream has completed, as in
    /// Combine.
    func request() -> (any Subscription)? {
        if case .active(let upstream, _) = status { return upstream }
        return nil
    }

    /// The upstream to pass on what the downstream answered a delivered value, until the completion is delivered.
    func answer() -> (any Subscription)? {
        switch status {
        case .active(let upstream, _), .completing(let upstream, _): upstream
        case .awaitingSubscription, .terminal: nil
        }
    }

    /// The upstream to cancel and the downstream to release, both outside the lock.
    ///
    /// As in Combine, a cancel before the upstream's subscription arrived does nothing — it returns nil, and that
    /// subscription still reaches the downstream — and one after the upstream completed does not cancel the upstream.
    mutating func cancel() -> (upstream: (any Subscription)?, released: Downstream?)? {
        switch status {
        case .awaitingSubscription:
            return nil
        case .terminal:
            return (nil, nil)
        case .active(let upstream, let downstream):
            status = .terminal
            return (upstream, downstream)
        case .completing(_, let downstream):
            status = .terminal
            return (nil, downstream)
        }
    }

    /// On the scheduler: the downstream to hand a value to, unless the subscription was cancelled meanwhile.
    func deliverValue() -> Downstream? {
        switch status {
        case .active(_, let downstream), .completing(_, let downstream): downstream
        case .awaitingSubscription, .terminal: nil
        }
    }

    /// On the scheduler: the downstream to complete, which the state lets go of, unless the subscription was
    /// cancelled meanwhile.
    mutating func deliverCompletion() -> Downstream? {
        guard case .completing(_, let downstream) = status else { return nil }
        status = .terminal
        return downstream
    }
}
