/// A publisher that never publishes any values, and optionally finishes immediately.
///
/// Each subscriber gets the empty subscription (`Subscriptions.empty`), then, when `completeImmediately` is true, a
/// `.finished` completion at once, without waiting for demand. With `completeImmediately` false it never completes,
/// which is useful in tests and as a placeholder.
public struct Empty<Output, Failure: Error>: Publisher, Equatable {
    /// A Boolean value that indicates whether the publisher immediately sends a completion.
    public let completeImmediately: Bool

    /// Creates an empty publisher.
    public init(completeImmediately: Bool = true) {
        self.completeImmediately = completeImmediately
    }

    /// Creates an empty publisher with the given completion behaviour and output and failure types.
    ///
    /// Use this initializer to connect the empty publisher to subscribers or other publishers that have specific
    /// output and failure types.
    public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
        self.init(completeImmediately: completeImmediately)
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        if completeImmediately {
            subscriber.receive(completion: .finished)
        }
    }

    public static func == (lhs: Empty<Output, Failure>, rhs: Empty<Output, Failure>) -> Bool {
        lhs.completeImmediately == rhs.completeImmediately
    }
}
