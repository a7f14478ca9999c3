/// A publisher that immediately terminates with the specified error.
///
/// Each subscriber gets the empty subscription (`Subscriptions.empty`), then the failure at once, without waiting
/// for demand.
public struct Fail<Output, Failure: Error>: Publisher {
    /// The failure to send when terminating the publisher.
    public let error: Failure

    /// Creates a publisher that immediately terminates with the specified failure.
    public init(error: Failure) {
        self.error = error
    }

    /// Creates a publisher of the given output type that immediately terminates with the specified failure.
    ///
    /// Use this initializer to create a `Fail` publisher that can work with subscribers or publishers that expect a
    /// given output type.
    public init(outputType: Output.Type, failure: Failure) {
        self.init(error: failure)
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .failure(error))
    }
}

extension Fail: Equatable where Failure: Equatable {
    public static func == (lhs: Fail<Output, Failure>, rhs: Fail<Output, Failure>) -> Bool {
        lhs.error == rhs.error
    }
}
