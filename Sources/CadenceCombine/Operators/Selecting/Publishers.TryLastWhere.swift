extension Publishers {
    /// A publisher that only publishes the last element of a stream that satisfies an error-throwing predicate
    /// closure, once the stream finishes.
    ///
    /// It requests `.unlimited` from the upstream and delivers the latest element that satisfied the predicate when
    /// the upstream finishes, once the downstream has requested a value. If the predicate throws, it cancels the
    /// upstream and fails with the error.
    public struct TryLastWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that determines whether to publish an element.
        public let predicate: (Output) throws -> Bool

        /// Creates a publisher that publishes the last element of `upstream` that satisfies the throwing `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let strategy = TryLastWhereStrategy<Output, Upstream.Failure>()
            upstream.subscribe(ReducingSubscription(strategy: strategy, body: predicate, downstream: subscriber))
        }
    }
}

extension Publisher {
    /// Publishes the last element of a stream that satisfies an error-throwing predicate closure, after the stream
    /// finishes.
    ///
    /// If the predicate throws, the publisher fails with the thrown error.
    ///
    /// - Parameter predicate: A closure that takes an element as its parameter and returns a Boolean value that
    ///   indicates whether to publish the element.
    /// - Returns: A publisher that only publishes the last element satisfying the given predicate.
    public func tryLast(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryLastWhere<Self> {
        Publishers.TryLastWhere(upstream: self, predicate: predicate)
    }
}

/// Keeps the latest element that satisfies the throwing predicate.
private struct TryLastWhereStrategy<Input, UpstreamFailure: Error>: ReducingStrategy {
    typealias Output = Input
    typealias Failure = any Error
    typealias Body = (Input) throws -> Bool

    var last: Input?

    static var name: String { "TryLastWhere" }

    var partialResult: Output? { last }

    var initialResult: Output? { nil }

    mutating func reduce(_ input: Input, using body: Body) -> ReducingStep<Failure> {
        do {
            if try body(input) {
                last = input
            }
            return .continue
        } catch {
            return .fail(error)
        }
    }

    static func failure(from error: UpstreamFailure) -> Failure { error }

    mutating func takeResult() -> Output? { last }
}
