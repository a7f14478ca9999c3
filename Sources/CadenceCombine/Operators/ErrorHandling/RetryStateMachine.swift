/// Retry's state, with no side effects: each transition says what the caller must do outside the lock.
///
/// A failure that leaves retries resubscribes to the upstream; a failure delivered from inside that `subscribe`
/// (a publisher that fails at once) is remembered and looped on by the caller, not recursed into.
struct RetryStateMachine<Downstream> {
    /// What to do with a subscription from the upstream.
    enum SubscriptionAction {
        /// A second subscription, or one after cancel: cancel it.
        case cancel
        /// Keep it: hand the operator to `downstream` as its subscription (the first time only, else nil), then
        /// request the demand still outstanding from the upstream when it is more than none.
        case attach(downstream: Downstream?, outstanding: Subscribers.Demand)
    }

    /// What to do with a completion from the upstream.
    enum CompletionAction {
        case none
        /// Subscribe to the upstream again; then ask ``resubscribeAgain()`` whether to loop.
        case resubscribe
        /// Deliver the completion to the downstream, which the state has let go of.
        case deliver(Downstream)
    }

    private(set) var downstream: Downstream?
    private var subscription: (any Subscription)?
    /// The retries left; nil retries indefinitely.
    private(set) var remaining: Int?
    /// What the downstream asked for and has not received yet.
    private(set) var demand = Subscribers.Demand.none
    private var sentSubscription = false
    /// Set while the caller resubscribes, so a failure delivered from inside `subscribe` loops instead of recursing.
    private var isResubscribing = false
    private var needsResubscribe = false

    init(downstream: Downstream, retries: Int?) {
        self.downstream = downstream
        remaining = retries
    }

    mutating func receive(subscription: any Subscription) -> SubscriptionAction {
        guard let downstream, self.subscription == nil else { return .cancel }
        self.subscription = subscription
        defer { sentSubscription = true }
        return .attach(downstream: sentSubscription ? nil : downstream, outstanding: demand)
    }

    /// What to do with a value from the upstream.
    enum ValueAction {
        /// The subscription ended: drop it.
        case none
        /// Hand it to the downstream.
        case deliver(Downstream)
        /// The downstream did not ask for it (or it came before any subscription): a broken rule, on which Combine
        /// traps.
        case unrequested
    }

    /// A value arrived, counted against the demand.
    mutating func receiveValue() -> ValueAction {
        guard let downstream else { return .none }
        guard demand > 0 else { return .unrequested }
        demand -= 1
        return .deliver(downstream)
    }

    /// The downstream asked for `more` on receiving a value: the upstream to request it from, if one is held. (As
    /// in Combine, the value's own return is none, and the demand reaches the upstream as a request, so a value that
    /// arrives between two subscriptions adds to what the next one is asked for.)
    mutating func downstreamAsked(_ more: Subscribers.Demand) -> (any Subscription)? {
        guard downstream != nil else { return nil }
        demand += more
        return subscription
    }

    mutating func receive(completion isFailure: Bool) -> CompletionAction {
        guard let downstream else { return .none }
        subscription = nil
        // As in Combine, only a count that reaches exactly zero stops: a negative one retries indefinitely.
        if isFailure, remaining != 0 {
            remaining = remaining.map { $0 > 0 ? $0 - 1 : $0 }
            guard !isResubscribing else {
                needsResubscribe = true
                return .none
            }
            isResubscribing = true
            needsResubscribe = false
            return .resubscribe
        }
        self.downstream = nil
        return .deliver(downstream)
    }

    /// After a resubscription: whether a failure came from inside it, so the caller subscribes again.
    mutating func resubscribeAgain() -> Bool {
        if needsResubscribe, downstream != nil {
            needsResubscribe = false
            return true
        }
        isResubscribing = false
        return false
    }

    /// The downstream requested `additional`: the upstream to pass it to, if one is held.
    mutating func request(_ additional: Subscribers.Demand) -> (any Subscription)? {
        guard downstream != nil else { return nil }
        demand += additional
        return subscription
    }

    /// The downstream to release and the upstream to cancel, outside the lock.
    mutating func cancel() -> (released: Downstream?, upstream: (any Subscription)?) {
        guard let released = downstream else { return (nil, nil) }
        downstream = nil
        defer { subscription = nil }
        return (released, subscription)
    }
}
