extension Publishers {
    /// A publisher that only publishes the first element of a stream to satisfy a predicate closure.
    ///
    /// It requests `.unlimited` from the upstream, cancels the upstream at the first element that satisfies the
    /// predicate, and delivers that element once the downstream has requested a value. If no element satisfies it,
    /// it finishes without a value. Its subscription's `description` is `"TryFirst"`, as in Combine.
    public struct FirstWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that determines whether to publish an element.
        public let predicate: (Output) -> Bool

        /// Creates a publisher that publishes the first element of `upstream` that satisfies `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let strategy = FirstWhereStrategy<Output, Failure>()
            upstream.subscribe(ReducingSubscription(strategy: strategy, body: predicate, downstream: subscriber))
        }
    }
}

extension Publisher {
    /// Publishes the first element of a stream to satisfy a predicate closure, then finishes normally.
    ///
    /// ```swift
    /// (-10...10).publisher.first { $0 > 0 }.sink { print($0) } // Prints "1"
    /// ```
    ///
    /// - Parameter predicate: A closure that takes an element as a parameter and returns a Boolean value that
    ///   indicates whether to publish the element.
    /// - Returns: A publisher that only publishes the first element of a stream that satisfies the predicate.
    public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
        Publishers.FirstWhere(upstream: self, predicate: predicate)
    }
}

/// Answers with the first element that satisfies the predicate.
private struct FirstWhereStrategy<Input, Failure: Error>: ReducingStrategy {
    typealias UpstreamFailure = Failure
    typealias Output = Input
    typealias Body = (Input) -> Bool

    var first: Input?

    /// Combine names this subscription "TryFirst" (not "FirstWhere"); matched on purpose.
    static var name: String { "TryFirst" }

    var partialResult: Output? { first }

    var initialResult: Output? { nil }

    mutating func reduce(_ input: Input, using body: Body) -> ReducingStep<Failure> {
        guard body(input) else { return .continue }
        first = input
        return .finish
    }

    mutating func takeResult() -> Output? { first }
}
