extension Publishers {
    /// A publisher that publishes a single Boolean value that indicates whether all received elements pass a given
    /// predicate.
    ///
    /// It requests `.unlimited` from the upstream. On the first element that fails the predicate it cancels the
    /// upstream and publishes `false`; if the upstream finishes first, it publishes `true`. Either way the value
    /// waits for the downstream's first request.
    public struct AllSatisfy<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that evaluates each received element.
        ///
        /// Return `true` to continue, or `false` to cancel the upstream and finish.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that tells whether every element of `upstream` satisfies `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let strategy = AllSatisfyStrategy<Upstream.Output, Failure>()
            upstream.subscribe(ReducingSubscription(strategy: strategy, body: predicate, downstream: subscriber))
        }
    }
}

extension Publisher {
    /// Publishes a single Boolean value that indicates whether all received elements pass a given predicate.
    ///
    /// ```swift
    /// [2, 4, 6].publisher.allSatisfy { $0.isMultiple(of: 2) }.sink { print($0) } // Prints "true"
    /// ```
    ///
    /// - Parameter predicate: A closure that evaluates each received element. Return `true` to continue, or `false`
    ///   to cancel the upstream and complete.
    /// - Returns: A publisher that publishes a Boolean value that indicates whether all received elements pass a
    ///   given predicate.
    public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
        Publishers.AllSatisfy(upstream: self, predicate: predicate)
    }
}

/// Answers false at the first element that fails the predicate, true otherwise.
private struct AllSatisfyStrategy<Input, Failure: Error>: ReducingStrategy {
    typealias UpstreamFailure = Failure
    typealias Output = Bool
    typealias Body = (Input) -> Bool

    var satisfied = true

    static var name: String { "AllSatisfy" }

    var partialResult: Output? { satisfied }

    var initialResult: Output? { true }

    mutating func reduce(_ input: Input, using body: Body) -> ReducingStep<Failure> {
        guard !body(input) else { return .continue }
        satisfied = false
        return .finish
    }

    mutating func takeResult() -> Output? { satisfied }
}
