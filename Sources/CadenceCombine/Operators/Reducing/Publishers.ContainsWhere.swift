extension Publishers {
    /// A publisher that emits a Boolean value upon receiving an element that satisfies the predicate closure.
    ///
    /// It requests `.unlimited` from the upstream. On the first element that satisfies the predicate it cancels the
    /// upstream and publishes `true`; if the upstream finishes first, it publishes `false`. Either way the value
    /// waits for the downstream's first request.
    public struct ContainsWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that determines whether the publisher should consider an element as a match.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that tells whether `upstream` publishes an element satisfying `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let strategy = ContainsWhereStrategy<Upstream.Output, Failure>()
            upstream.subscribe(ReducingSubscription(strategy: strategy, body: predicate, downstream: subscriber))
        }
    }
}

extension Publisher {
    /// Publishes a Boolean value upon receiving an element that satisfies the predicate closure.
    ///
    /// - Parameter predicate: A closure that takes an element as its parameter and returns a Boolean value that
    ///   indicates whether the element satisfies the closure's comparison logic.
    /// - Returns: A publisher that emits the Boolean value `true` when the upstream publisher emits a matching
    ///   value, or `false` if the upstream finishes without one.
    public func contains(where predicate: @escaping (Output) -> Bool) -> Publishers.ContainsWhere<Self> {
        Publishers.ContainsWhere(upstream: self, predicate: predicate)
    }
}

/// Answers true at the first element that satisfies the predicate.
private struct ContainsWhereStrategy<Input, Failure: Error>: ReducingStrategy {
    typealias UpstreamFailure = Failure
    typealias Output = Bool
    typealias Body = (Input) -> Bool

    var found = false

    static var name: String { "ContainsWhere" }

    var partialResult: Output? { found }

    var initialResult: Output? { false }

    mutating func reduce(_ input: Input, using body: Body) -> ReducingStep<Failure> {
        guard body(input) else { return .continue }
        found = true
        return .finish
    }

    mutating func takeResult() -> Output? { found }
}
