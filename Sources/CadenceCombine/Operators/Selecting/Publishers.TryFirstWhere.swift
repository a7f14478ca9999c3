extension Publishers {
    /// A publisher that only publishes the first element of a stream to satisfy a throwing predicate closure.
    ///
    /// It requests `.unlimited` from the upstream, cancels the upstream at the first element that satisfies the
    /// predicate, and delivers that element once the downstream has requested a value. If the predicate throws, it
    /// cancels the upstream and fails with the error.
    public struct TryFirstWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that determines whether to publish an element.
        public let predicate: (Output) throws -> Bool

        /// Creates a publisher that publishes the first element of `upstream` that satisfies the throwing
        /// `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let strategy = TryFirstWhereStrategy<Output, Upstream.Failure>()
            upstream.subscribe(ReducingSubscription(strategy: strategy, body: predicate, downstream: subscriber))
        }
    }
}

extension Publisher {
    /// Publishes the first element of a stream to satisfy a throwing predicate closure, then finishes normally.
    ///
    /// If the predicate throws, the publisher fails with the thrown error.
    ///
    /// - Parameter predicate: A closure that takes an element as a parameter and returns a Boolean value that
    ///   indicates whether to publish the element.
    /// - Returns: A publisher that only publishes the first element of a stream that satisfies the predicate.
    public func tryFirst(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryFirstWhere<Self> {
        Publishers.TryFirstWhere(upstream: self, predicate: predicate)
    }
}

/// Answers with the first element that satisfies the throwing predicate.
private struct TryFirstWhereStrategy<Input, UpstreamFailure: Error>: ReducingStrategy {
    typealias Output = Input
    typealias Failure = any Error
    typealias Body = (Input) throws -> Bool

    var first: Input?

    static var name: String { "TryFirstWhere" }

    var partialResult: Output? { first }

    var initialResult: Output? { nil }

    mutating func reduce(_ input: Input, using body: Body) -> ReducingStep<Failure> {
        do {
            guard try body(input) else { return .continue }
            first = input
            return .finish
        } catch {
            return .fail(error)
        }
    }

    static func failure(from error: UpstreamFailure) -> Failure { error }

    mutating func takeResult() -> Output? { first }
}
