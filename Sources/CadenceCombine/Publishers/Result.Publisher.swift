extension Result {
    /// A publisher that publishes this result once: its success value followed by `.finished`, or its failure.
    public var publisher: Publisher {
        Publisher(self)
    }

    /// A publisher that publishes an output to each subscriber exactly once then finishes, or fails immediately
    /// without producing any elements.
    ///
    /// A success goes out on the subscriber's first positive request, followed by `.finished`; a failure goes out
    /// at once, after the empty subscription, without waiting for demand.
    public struct Publisher: CadenceCombine.Publisher {
        public typealias Output = Success

        /// The result to deliver to each subscriber.
        public let result: Result<Output, Failure>

        /// Creates a publisher that delivers the specified result.
        public init(_ result: Result<Output, Failure>) {
            self.result = result
        }

        /// Creates a publisher that sends the specified output to each subscriber, then finishes.
        public init(_ output: Output) {
            self.init(.success(output))
        }

        /// Creates a publisher that immediately fails with the specified error.
        public init(_ failure: Failure) {
            self.init(.failure(failure))
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Success, S.Failure == Failure {
            switch result {
            case .success(let output):
                subscriber.receive(subscription: OnceSubscription(output: output, downstream: subscriber, name: "Once"))
            case .failure(let error):
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .failure(error))
            }
        }
    }
}

extension Result.Publisher: Equatable where Success: Equatable, Failure: Equatable {}
