/// A protocol representing the connection of a subscriber to a publisher.
///
/// Subscriptions are class constrained because a subscription has identity, defined by the moment in time a
/// particular subscriber attached to a publisher. Cancelling a subscription must be thread-safe, and it is enough to
/// cancel it once.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    /// Tells a publisher that it may send more values to the subscriber.
    func request(_ demand: Subscribers.Demand)
}
