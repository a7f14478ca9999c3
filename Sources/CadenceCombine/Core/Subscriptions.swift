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
