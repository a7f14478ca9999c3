/// A protocol representing the connection of a subscriber to a publisher.
///
/// Subscriptions are class constrained because a subscription has identity, defined by the moment in time a
/// particular subscriber attached to a publisher. Cancelling a subscription must be thread-safe, and it is enough to
/// cancel it once.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    /// Tells a publisher that it may send more values to the subscriber.
    func request(_ demand: Subscribers.Demand)
}

/// A namespace for symbols related to subscriptions.
public enum Subscriptions {}

extension Subscriptions {
    /// Returns the "empty" subscription: it ignores requests and cancellation.
    ///
    /// Use it when a publisher must give a subscriber a subscription but will never send it a value, for example
    /// before completing at once.
    public static var empty: any Subscription {
        EmptySubscription.shared
    }
}

private final class EmptySubscription: Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, Sendable
{
    static let shared = EmptySubscription()

    func request(_ demand: Subscribers.Demand) {}

    func cancel() {}

    var description: String { "Empty" }

    var customMirror: Mirror { Mirror(self, children: [:]) }

    var playgroundDescription: Any { description }
}

