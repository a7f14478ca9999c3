extension Publisher {
    /// Omits elements from the upstream publisher until a given closure returns false, before republishing all
    /// remaining elements.
    ///
    /// ```swift
    /// [-2, -1, 0, 3, -4].publisher
    ///     .drop { $0 <= 0 }
    ///     .sink { print($0) } // prints 3, then -4
    /// ```
    ///
    /// - Parameter predicate: A closure that returns whether to drop the element.
    /// - Returns: A publisher that skips over elements until the closure returns `false`.
    public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
        Publishers.DropWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that omits elements from an upstream publisher until a given closure returns false.
    ///
    /// Demand: requests pass through unchanged, and each dropped value is answered with `.max(1)`, so the subscriber's
    /// demand only counts the values it gets. The predicate is not called again once it returned `false`.
    public struct DropWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that indicates whether to drop the element.
        public let predicate: (Output) -> Bool

        /// Creates a publisher that drops elements of `upstream` while `predicate` returns `true`.
        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber to the upstream through this operator.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                TransformSubscription(
                    downstream: subscriber, operation: Step(predicate: predicate), initialState: true))
        }
    }
}

extension Publishers.DropWhile {
    /// Drops values while the predicate holds; its state is whether it still drops. Once the predicate returned
    /// false it is not called again.
    private struct Step: TransformOperation {
        let predicate: (Upstream.Output) -> Bool

        static var description: String { "DropWhile" }

        static var conduct: TransformConduct { .lenient }

        static var rejectsZeroDemand: Bool { true }

        func step(_ input: Upstream.Output, state isDropping: inout Bool) -> TransformStep<Upstream.Output, Failure> {
            if isDropping {
                if predicate(input) {
                    return .skip
                }
                isDropping = false
            }
            return .emit(input)
        }

        func failure(from upstreamFailure: Failure) -> Failure { upstreamFailure }
    }
}
