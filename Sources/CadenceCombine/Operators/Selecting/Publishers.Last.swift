extension Publishers {
    /// A publisher that waits until after the stream finishes and then publishes the last element of the stream.
    ///
    /// It requests `.unlimited` from the upstream, keeps the latest element, and delivers it when the upstream
    /// finishes, once the downstream has requested a value. An empty upstream finishes without a value.
    public struct Last<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that publishes the last element of `upstream`.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let strategy = LastStrategy<Output, Failure>()
            upstream.subscribe(ReducingSubscription(strategy: strategy, body: (), downstream: subscriber))
        }
    }
}

extension Publishers.Last: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Publishes the last element of a stream, after the stream finishes.
    ///
    /// ```swift
    /// (-10...10).publisher.last().sink { print($0) } // Prints "10"
    /// ```
    ///
    /// - Returns: A publisher that only publishes the last element of a stream.
    public func last() -> Publishers.Last<Self> {
        Publishers.Last(upstream: self)
    }
}

/// Keeps the latest element.
private struct LastStrategy<Input, Failure: Error>: ReducingStrategy {
    typealias UpstreamFailure = Failure
    typealias Output = Input

    var last: Input?

    static var name: String { "Last" }

    var partialResult: Output? { last }

    var initialResult: Output? { nil }

    mutating func reduce(_ input: Input, using body: Void) -> ReducingStep<Failure> {
        last = input
        return .continue
    }

    mutating func takeResult() -> Output? { last }
}
