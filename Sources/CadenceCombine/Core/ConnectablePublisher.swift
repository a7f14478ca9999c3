/// A publisher that provides an explicit means of connecting and canceling publication.
///
/// Use `makeConnectable()` to create one from any publisher whose failure type is `Never`, and `multicast` for any
/// publisher; `autoconnect()` connects on the first subscription.
public protocol ConnectablePublisher<Output, Failure>: Publisher {
    /// Connects to the publisher, allowing it to produce elements, and returns an instance with which to cancel
    /// publishing.
    func connect() -> any Cancellable
}
