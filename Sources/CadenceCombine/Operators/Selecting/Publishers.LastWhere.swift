extension Publishers {
    /// A publisher that only publishes the last element of a stream that satisfies a predicate closure, once the
    /// stream finishes.
    ///
    /// It requests `.unlimited` from the upstream, keeps the latest element that satisfies the predicate, and
    /// delivers it when the upstream finishes, once the downstream has requested a value.
    public struct LastWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that determines whether to publish an element.
        public let predicate: (Output) -> Bool

        /// Creates a publisher that publishes the last element of `upstream` that satisfies `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let strategy = LastWhereStrategy<Output, Failure>()
            upstream.subscribe(ReducingSubscription(strategy: strategy, body: predicate, downstream: subscriber))
        }
    }
}

extension Publisher {
    /// Publishes the last element of a stream that satisfies a predicate closure, after upstream finishes.
    ///
    /// ```swift
    /// (-10...10).publisher.last { $0 < 6 }.sink { print($0) } // Prints "5"
    /// ```
    ///
    /// - Parameter predicate: A closure that takes an element as its parameter and returns a Boolean value that
    ///   indicates whether to publish the element.
    /// - Returns: A publisher that only publishes the last element satisfying the given predicate.
    public func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
        Publishers.LastWhere(upstream: self, predicate: predicate)
    }
}

/// Keeps the latest element that satisfies the predicate.
private struct LastWhereStrategy<Input, Failure: Error>: ReducingStrategy {
    typealias UpstreamFailure = Failure
    typealias Output = Input
    typealias Body = (Input) -> Bool

    var last: Input?

    static var name: String { "LastWhere" }

    var partialResult: Output? { last }

    var initialResult: Output? { nil }

    mutating func reduce(_ input: Input, using body: Body) -> ReducingStep<Failure> {
        if body(input) {
            last = input
        }
        return .continue
    }

    mutating func takeResult() -> Output? { last }
}
