/// Where an operator stands with one of its upstreams (flatMap's and switchToLatest's outer publisher, buffer's
/// upstream, the upstream and the other publisher of drop/prefix(untilOutputFrom:)), guarded by the operator's lock:
/// waiting for the subscription, holding it, or done with it.
enum SingleUpstreamLink {
    case awaiting
    case subscribed(any Subscription)
    case completed

    /// The upstream's subscription while it is held.
    var subscription: (any Subscription)? {
        if case .subscribed(let subscription) = self { return subscription }
        return nil
    }

    /// Whether the subscription has not arrived yet (and the link is not done).
    var isAwaiting: Bool {
        if case .awaiting = self { return true }
        return false
    }

    /// Keeps the upstream's subscription; `false` when one has already arrived or the link is done, and the caller
    /// must cancel the new one.
    mutating func attach(_ subscription: any Subscription) -> Bool {
        guard case .awaiting = self else { return false }
        self = .subscribed(subscription)
        return true
    }

    /// Ends the link and hands back the subscription if it was held, for the caller to cancel outside the lock.
    mutating func close() -> (any Subscription)? {
        defer { self = .completed }
        return subscription
    }
}
