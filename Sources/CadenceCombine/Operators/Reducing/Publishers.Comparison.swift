extension Publishers {
    /// A publisher that republishes items from another publisher only if each new item is in increasing order from
    /// the previously-published item.
    ///
    /// It requests `.unlimited` from the upstream, keeps the greatest element by `areInIncreasingOrder` (the first of
    /// equal ones), and delivers it when the upstream finishes, once the downstream has requested a value. An empty
    /// upstream finishes without a value.
    public struct Comparison<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// A closure that receives two elements and returns true if they are in increasing order.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

        /// Creates a publisher that publishes the greatest element of `upstream` according to `areInIncreasingOrder`.
        public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let strategy = ComparisonStrategy<Output, Failure>()
            upstream.subscribe(
                ReducingSubscription(strategy: strategy, body: areInIncreasingOrder, downstream: subscriber))
        }
    }
}

extension Publisher where Output: Comparable {
    /// Publishes the minimum value received from the upstream publisher, after it finishes.
    ///
    /// ```swift
    /// [3, 1, 2].publisher.min().sink { print($0) } // Prints "1"
    /// ```
    ///
    /// - Returns: A publisher that publishes the minimum value received from the upstream publisher, after the
    ///   upstream publisher finishes.
    public func min() -> Publishers.Comparison<Self> {
        max(by: >)
    }

    /// Publishes the maximum value received from the upstream publisher, after it finishes.
    ///
    /// - Returns: A publisher that publishes the maximum value received from the upstream publisher, after the
    ///   upstream publisher finishes.
    public func max() -> Publishers.Comparison<Self> {
        max(by: <)
    }
}

extension Publisher {
    /// Publishes the minimum value received from the upstream publisher, using the provided ordering closure.
    ///
    /// - Parameter areInIncreasingOrder: A closure that receives two elements and returns true if they're in
    ///   increasing order.
    /// - Returns: A publisher that publishes the minimum value received from the upstream publisher, after the
    ///   upstream publisher finishes.
    public func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        max(by: { areInIncreasingOrder($1, $0) })
    }

    /// Publishes the maximum value received from the upstream publisher, using the provided ordering closure.
    ///
    /// - Parameter areInIncreasingOrder: A closure that receives two elements and returns true if they're in
    ///   increasing order.
    /// - Returns: A publisher that publishes the maximum value received from the upstream publisher, after the
    ///   upstream publisher finishes.
    public func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }
}

/// Keeps the greatest value so far: a later value replaces it only when strictly greater.
private struct ComparisonStrategy<Input, Failure: Error>: ReducingStrategy {
    typealias UpstreamFailure = Failure
    typealias Output = Input
    typealias Body = (Input, Input) -> Bool

    var greatest: Input?

    static var name: String { "Comparison" }

    var partialResult: Output? { greatest }

    var initialResult: Output? { nil }

    mutating func reduce(_ input: Input, using body: Body) -> ReducingStep<Failure> {
        if let current = greatest {
            if body(current, input) {
                greatest = input
            }
        } else {
            greatest = input
        }
        return .continue
    }

    mutating func takeResult() -> Output? { greatest }
}
