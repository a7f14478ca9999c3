extension Publisher {
    /// Transforms elements from the upstream publisher by providing the current element to a closure along with the
    /// last value returned by the closure, and publishes each result.
    ///
    /// ```swift
    /// (0...4).publisher.scan(0, +)   // 0, 1, 3, 6, 10
    /// ```
    ///
    /// - Parameters:
    ///   - initialResult: The previous result passed to the closure with the first element.
    ///   - nextPartialResult: A closure that takes the previous result and the next element, and returns a new one.
    /// - Returns: A publisher that transforms elements by applying a closure that receives its previous return value
    ///   and the next element from the upstream publisher.
    @inlinable
    public func scan<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) -> T
    ) -> Publishers.Scan<Self, T> {
        Publishers.Scan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// A publisher that transforms elements from the upstream publisher by providing the current element to a
    /// closure along with the last value returned by the closure.
    ///
    /// Like Combine's, its subscriber hands the upstream subscription straight to the downstream, so demand and
    /// cancellation pass through untouched; the running result changes only in `receive(_:)`, which a publisher
    /// never calls concurrently, so it needs no lock.
    public struct Scan<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The previous result passed to `nextPartialResult` with the first element.
        public let initialResult: Output

        /// A closure that takes the previous result and the next element, and returns the next result.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates a publisher that publishes each running result of `nextPartialResult`, starting from
        /// `initialResult`.
        @inlinable
        public init(
            upstream: Upstream,
            initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches the subscriber to the upstream through this operator.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // `receive(subscriber:)`, not `subscribe(_:)`: see `Publishers.Map.receive(subscriber:)`.
            upstream.receive(
                subscriber: Inner(downstream: subscriber, result: initialResult, nextPartialResult: nextPartialResult))
        }
    }
}

extension Publishers.Scan {
    /// Inlinable, as `Map`'s subscriber is, so that a pipeline built in the caller's module is specialised there.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let downstream: Downstream
        @usableFromInline let nextPartialResult: (Output, Upstream.Output) -> Output
        // Changed only by `receive(_:)`, which the upstream serializes: no run-time exclusivity check.
        @usableFromInline @exclusivity(unchecked) var result: Output

        @inlinable
        init(downstream: Downstream, result: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output) {
            self.downstream = downstream
            self.result = result
            self.nextPartialResult = nextPartialResult
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            result = nextPartialResult(result, input)
            return downstream.receive(result)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            downstream.receive(completion: completion)
        }

        @usableFromInline var description: String { "Scan" }

        @usableFromInline var customMirror: Mirror {
            Mirror(self, children: ["downstream": downstream, "result": result])
        }

        @usableFromInline var playgroundDescription: Any { description }
    }
}
