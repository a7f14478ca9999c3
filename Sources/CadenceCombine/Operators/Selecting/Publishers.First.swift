extension Publishers {
    /// A publisher that publishes the first element of a stream, then finishes.
    ///
    /// It requests `.unlimited` from the upstream as soon as it subscribes (as Combine does), cancels the upstream at
    /// the first element, and delivers that element once the downstream has requested a value. An empty upstream
    /// finishes without a value.
    public struct First<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that publishes the first element of `upstream`.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let strategy = FirstStrategy<Output, Failure>()
            upstream.subscribe(ReducingSubscription(strategy: strategy, body: (), downstream: subscriber))
        }
    }
}

extension Publishers.First: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Publishes the first element of a stream, then finishes.
    ///
    /// If the upstream completes before `first()` receives any elements, it completes without emitting any values.
    ///
    /// ```swift
    /// (-10...10).publisher.first().sink { print($0) } // Prints "-10"
    /// ```
    ///
    /// - Returns: A publisher that only publishes the first element of a stream.
    public func first() -> Publishers.First<Self> {
        Publishers.First(upstream: self)
    }
}

/// Answers with the first element.
private struct FirstStrategy<Input, Failure: Error>: ReducingStrategy {
    typealias UpstreamFailure = Failure
    typealias Output = Input

    var first: Input?

    static var name: String { "First" }

    var partialResult: Output? { first }

    var initialResult: Output? { nil }

    mutating func reduce(_ input: Input, using body: Void) -> ReducingStep<Failure> {
        first = input
        return .finish
    }

    mutating func takeResult() -> Output? { first }
}
