extension Publishers {
    /// A publisher that publishes the number of elements received from the upstream publisher.
    ///
    /// It requests `.unlimited` from the upstream, counts without taking a lock, and delivers the count when the
    /// upstream finishes, once the downstream has requested a value.
    public struct Count<Upstream: Publisher>: Publisher {
        public typealias Output = Int
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that counts the elements of `upstream`.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let strategy = CountStrategy<Upstream.Output, Failure>()
            upstream.subscribe(ReducingSubscription(strategy: strategy, body: (), downstream: subscriber))
        }
    }
}

extension Publishers.Count: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Publishes the number of elements received from the upstream publisher.
    ///
    /// ```swift
    /// (10..<20).publisher.count().sink { print($0) } // Prints "10"
    /// ```
    ///
    /// - Returns: A publisher that consumes all elements until the upstream publisher finishes, then emits a single
    ///   value with the total number of elements received.
    public func count() -> Publishers.Count<Self> {
        Publishers.Count(upstream: self)
    }
}

/// Counts the values.
private struct CountStrategy<Input, Failure: Error>: ReducingStrategy {
    typealias UpstreamFailure = Failure
    typealias Output = Int

    var count = 0

    static var name: String { "Count" }

    var partialResult: Output? { count }

    var initialResult: Output? { 0 }

    mutating func reduce(_ input: Input, using body: Void) -> ReducingStep<Failure> {
        count += 1
        return .continue
    }

    mutating func takeResult() -> Output? { count }
}
