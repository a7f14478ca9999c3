/// Where a subscriber to one upstream stands — waiting for the upstream's subscription, holding it, or done — with
/// what it keeps while it is live (`Context`: typically its downstream, `Void` when it keeps nothing).
///
/// A value type with no lock and no calls out: the owner keeps it under its lock, and each transition hands back what
/// the owner must act on after leaving the lock (a subscription to cancel, a context to call or to release), so that
/// nothing is called or deinitialised while the lock is held.
enum SubscriptionStatus<Context> {
    /// The upstream's subscription has not arrived yet.
    case awaitingSubscription(Context)
    /// The upstream's subscription arrived and nothing ended it.
    case subscribed(any Subscription, Context)
    /// Completed or cancelled: nothing more happens, and the context has been let go.
    case terminal

    /// The context, until the status is terminal.
    var context: Context? {
        switch self {
        case .awaitingSubscription(let context), .subscribed(_, let context):
            return context
        case .terminal:
            return nil
        }
    }

    /// The upstream's subscription and the context, while the subscription is held.
    var subscribed: (subscription: any Subscription, context: Context)? {
        if case .subscribed(let subscription, let context) = self { return (subscription, context) }
        return nil
    }

    /// The upstream's subscription, while it is held.
    var subscription: (any Subscription)? {
        if case .subscribed(let subscription, _) = self { return subscription }
        return nil
    }

    /// Whether the upstream's subscription is held.
    var isSubscribed: Bool {
        if case .subscribed = self { return true }
        return false
    }

    /// Whether the status has ended.
    var isTerminal: Bool {
        if case .terminal = self { return true }
        return false
    }

    /// The upstream's subscription arrived: keeps it and hands back the context, or `nil` when a subscription arrived
    /// already or the status has ended — then the caller cancels `subscription`.
    mutating func receive(subscription: any Subscription) -> Context? {
        guard case .awaitingSubscription(let context) = self else { return nil }
        self = .subscribed(subscription, context)
        return context
    }

    /// The upstream completed: ends the status and hands back the subscription and the context it held, or `nil` —
    /// leaving the status as it was — when no subscription is held (none arrived yet, or the status has ended).
    mutating func complete() -> (subscription: any Subscription, context: Context)? {
        guard case .subscribed(let subscription, let context) = self else { return nil }
        self = .terminal
        return (subscription, context)
    }

    /// Ends the status whatever it was (a cancellation), handing back what it was: the caller cancels its
    /// subscription, if any, and releases its context after leaving the lock.
    mutating func terminate() -> SubscriptionStatus {
        defer { self = .terminal }
        return self
    }
}
