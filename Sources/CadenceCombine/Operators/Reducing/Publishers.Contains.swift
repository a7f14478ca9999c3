extension Publishers {
    /// A publisher that emits a Boolean value when it receives a specific element from its upstream publisher.
    ///
    /// It requests `.unlimited` from the upstream. On the first element equal to `output` it cancels the upstream
    /// and publishes `true`; if the upstream finishes first, it publishes `false`. Either way the value waits for
    /// the downstream's first request.
    public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
        public typealias Output = Bool
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The element to scan for in the upstream publisher.
        public let output: Upstream.Output

        /// Creates a publisher that tells whether `upstream` publishes `output`.
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let strategy = ContainsStrategy<Upstream.Output, Failure>(wanted: output)
            upstream.subscribe(ReducingSubscription(strategy: strategy, body: (), downstream: subscriber))
        }
    }
}

extension Publishers.Contains: Equatable where Upstream: Equatable {}

extension Publisher where Output: Equatable {
    /// Publishes a Boolean value upon receiving an element equal to the argument.
    ///
    /// ```swift
    /// [1, 2, 3].publisher.contains(2).sink { print($0) } // Prints "true"
    /// ```
    ///
    /// - Parameter output: An element to match against.
    /// - Returns: A publisher that emits the Boolean value `true` when the upstream publisher emits a matching
    ///   value, or `false` if the upstream finishes without one.
    public func contains(_ output: Output) -> Publishers.Contains<Self> {
        Publishers.Contains(upstream: self, output: output)
    }
}

/// Answers true at the first element equal to the wanted one.
private struct ContainsStrategy<Input: Equatable, Failure: Error>: ReducingStrategy {
    typealias UpstreamFailure = Failure
    typealias Output = Bool

    let wanted: Input
    var found = false

    static var name: String { "Contains" }

    var partialResult: Output? { found }

    var initialResult: Output? { false }

    mutating func reduce(_ input: Input, using body: Void) -> ReducingStep<Failure> {
        guard input == wanted else { return .continue }
        found = true
        return .finish
    }

    mutating func takeResult() -> Output? { found }
}
