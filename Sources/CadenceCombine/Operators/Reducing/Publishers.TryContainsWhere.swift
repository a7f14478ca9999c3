extension Publishers {
    /// A publisher that emits a Boolean value upon receiving an element that satisfies the throwing predicate.
    ///
    /// It requests `.unlimited` from the upstream. On the first element that satisfies the predicate it cancels the
    /// upstream and publishes `true`; if the upstream finishes first, it publishes `false`. If the predicate throws,
    /// it cancels the upstream and fails with the error.
    public struct TryContainsWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that determines whether this publisher should emit a `true` element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that tells whether `upstream` publishes an element satisfying the throwing
        /// `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let strategy = TryContainsWhereStrategy<Upstream.Output, Upstream.Failure>()
            upstream.subscribe(ReducingSubscription(strategy: strategy, body: predicate, downstream: subscriber))
        }
    }
}

extension Publisher {
    /// Publishes a Boolean value upon receiving an element that satisfies the throwing predicate closure.
    ///
    /// - Parameter predicate: A closure that takes an element as its parameter and returns a Boolean value that
    ///   indicates whether the element satisfies the closure's comparison logic. If it throws, the publisher fails
    ///   with the thrown error.
    /// - Returns: A publisher that emits the Boolean value `true` when the upstream publisher emits a matching
    ///   value, `false` if it finishes without one.
    public func tryContains(
        where predicate: @escaping (Output) throws -> Bool
    ) -> Publishers.TryContainsWhere<Self> {
        Publishers.TryContainsWhere(upstream: self, predicate: predicate)
    }
}

/// Answers true at the first element that satisfies the throwing predicate.
private struct TryContainsWhereStrategy<Input, UpstreamFailure: Error>: ReducingStrategy {
    typealias Output = Bool
    typealias Failure = any Error
    typealias Body = (Input) throws -> Bool

    var found = false

    static var name: String { "TryContainsWhere" }

    var partialResult: Output? { found }

    var initialResult: Output? { false }

    mutating func reduce(_ input: Input, using body: Body) -> ReducingStep<Failure> {
        do {
            guard try body(input) else { return .continue }
            found = true
            return .finish
        } catch {
            return .fail(error)
        }
    }

    static func failure(from error: UpstreamFailure) -> Failure { error }

    mutating func takeResult() -> Output? { found }
}
