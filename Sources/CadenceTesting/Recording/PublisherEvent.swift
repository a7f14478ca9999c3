/// One thing a publisher did to the subscriber `expect(_:)` attached: subscribed it, sent a value, or completed.
public enum PublisherEvent<Output, Failure: Error> {
    /// The publisher handed over its subscription.
    case subscription
    /// The publisher sent a value.
    case value(Output)
    /// The publisher finished or failed.
    case completion(Subscribers.Completion<Failure>)
}

// Unchecked because Combine does not declare `Subscribers.Completion` Sendable; it holds only a `Failure`, an `Error`.
extension PublisherEvent: @unchecked Sendable where Output: Sendable {}

extension PublisherEvent: Equatable where Output: Equatable, Failure: Equatable {}
