extension Publishers {
    /// A publisher that republishes items from another publisher only if each new item is in increasing order from
    /// the previously-published item, and fails if the ordering logic throws an error.
    ///
    /// It requests `.unlimited` from the upstream and delivers the greatest element once the upstream finishes and
    /// the downstream has requested a value. If the closure throws, it cancels the upstream and fails.
    public struct TryComparison<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// A closure that receives two elements and returns true if they are in increasing order.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

        /// Creates a publisher that publishes the greatest element of `upstream` according to the throwing
        /// `areInIncreasingOrder`.
        public init(
            upstream: Upstream,
            areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool
        ) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let strategy = TryComparisonStrategy<Output, Upstream.Failure>()
            upstream.subscribe(
                ReducingSubscription(strategy: strategy, body: areInIncreasingOrder, downstream: subscriber))
        }
    }
}

extension Publisher {
    /// Publishes the minimum value received from the upstream publisher, using the provided error-throwing closure to
    /// order the items.
    ///
    /// - Parameter areInIncreasingOrder: A throwing closure that receives two elements and returns true if they're
    ///   in increasing order. If this closure throws, the publisher terminates with a failure.
    /// - Returns: A publisher that publishes the minimum value received from the upstream publisher, after the
    ///   upstream publisher finishes.
    public func tryMin(
        by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryComparison<Self> {
        tryMax(by: { try areInIncreasingOrder($1, $0) })
    }

    /// Publishes the maximum value received from the upstream publisher, using the provided error-throwing closure to
    /// order the items.
    ///
    /// - Parameter areInIncreasingOrder: A throwing closure that receives two elements and returns true if they're
    ///   in increasing order. If this closure throws, the publisher terminates with a failure.
    /// - Returns: A publisher that publishes the maximum value received from the upstream publisher, after the
    ///   upstream publisher finishes.
    public func tryMax(
        by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }
}

/// Keeps the greatest value so far by a throwing ordering.
private struct TryComparisonStrategy<Input, UpstreamFailure: Error>: ReducingStrategy {
    typealias Output = Input
    typealias Failure = any Error
    typealias Body = (Input, Input) throws -> Bool

    var greatest: Input?

    static var name: String { "TryComparison" }

    var partialResult: Output? { greatest }

    var initialResult: Output? { nil }

    mutating func reduce(_ input: Input, using body: Body) -> ReducingStep<Failure> {
        guard let current = greatest else {
            greatest = input
            return .continue
        }
        do {
            if try body(current, input) {
                greatest = input
            }
            return .continue
        } catch {
            return .fail(error)
        }
    }

    static func failure(from error: UpstreamFailure) -> Failure { error }

    mutating func takeResult() -> Output? { greatest }
}
