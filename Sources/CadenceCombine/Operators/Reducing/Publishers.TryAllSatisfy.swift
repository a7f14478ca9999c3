extension Publishers {
    /// A publisher that publishes a single Boolean value that indicates whether all received elements pass a given
    /// error-throwing predicate.
    ///
    /// It requests `.unlimited` from the upstream. On the first element that fails the predicate it cancels the
    /// upstream and publishes `false`; if the upstream finishes first, it publishes `true`. If the predicate throws,
    /// it cancels the upstream and fails with the error.
    public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that evaluates each received element.
        ///
        /// Return `true` to continue, or `false` to cancel the upstream and complete. The closure may throw, in which
        /// case the publisher cancels the upstream publisher and fails with the thrown error.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that tells whether every element of `upstream` satisfies the throwing `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let strategy = TryAllSatisfyStrategy<Upstream.Output, Upstream.Failure>()
            upstream.subscribe(ReducingSubscription(strategy: strategy, body: predicate, downstream: subscriber))
        }
    }
}

extension Publisher {
    /// Publishes a single Boolean value that indicates whether all received elements pass a given error-throwing
    /// predicate.
    ///
    /// - Parameter predicate: A closure that evaluates each received element. Return `true` to continue, or `false`
    ///   to cancel the upstream and complete. The closure may throw an error, in which case the publisher cancels
    ///   the upstream publisher and fails with the thrown error.
    /// - Returns: A publisher that publishes a Boolean value that indicates whether all received elements pass a
    ///   given predicate.
    public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool) -> Publishers.TryAllSatisfy<Self> {
        Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
    }
}

/// Answers false at the first element that fails the throwing predicate, true otherwise.
private struct TryAllSatisfyStrategy<Input, UpstreamFailure: Error>: ReducingStrategy {
    typealias Output = Bool
    typealias Failure = any Error
    typealias Body = (Input) throws -> Bool

    var satisfied = true

    static var name: String { "TryAllSatisfy" }

    var partialResult: Output? { satisfied }

    var initialResult: Output? { true }

    mutating func reduce(_ input: Input, using body: Body) -> ReducingStep<Failure> {
        do {
            guard try !body(input) else { return .continue }
            satisfied = false
            return .finish
        } catch {
            return .fail(error)
        }
    }

    static func failure(from error: UpstreamFailure) -> Failure { error }

    mutating func takeResult() -> Output? { satisfied }
}
