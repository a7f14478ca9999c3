extension Publisher where Output: Equatable {
    /// Publishes only elements that don't match the previous element.
    ///
    /// ```swift
    /// [0, 1, 1, 2, 2, 2, 0].publisher.removeDuplicates()   // 0, 1, 2, 0
    /// ```
    ///
    /// - Returns: A publisher that consumes — rather than publishes — duplicate elements.
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: ==)
    }
}

extension Publisher {
    /// Publishes only elements that don't match the previous element, as evaluated by a provided closure.
    ///
    /// Each element is compared with the one received just before it, whether or not that one was published.
    ///
    /// - Parameter predicate: A closure that returns `true` when its second argument duplicates its first.
    /// - Returns: A publisher that consumes — rather than publishes — duplicate elements.
    public func removeDuplicates(
        by predicate: @escaping (Output, Output) -> Bool
    ) -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that publishes only elements that don't match the previous element.
    ///
    /// Demand passes upstream unchanged; a duplicate asks the upstream for one more (`.max(1)`).
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure to evaluate whether two elements are equivalent, for purposes of filtering.
        public let predicate: (Output, Output) -> Bool

        /// Creates a publisher that publishes only elements that `predicate` doesn't judge duplicates of the previous
        /// element.
        public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber to the upstream through this operator.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                TransformSubscription(downstream: subscriber, operation: Step(predicate: predicate), initialState: nil))
        }
    }
}

extension Publishers.RemoveDuplicates {
    private struct Step: TransformOperation {
        let predicate: (Output, Output) -> Bool

        static var description: String { "RemoveDuplicates" }

        static var conduct: TransformConduct { .strict }

        static var rejectsZeroDemand: Bool { true }

        /// As Combine's: the downstream and the last value seen (`nil` before the first).
        static func mirrorChildren(downstream: Any, status: Any, state last: Output?) -> [Mirror.Child] {
            [("downstream", downstream), ("last", last as Any)]
        }

        func step(_ input: Output, state previous: inout Output?) -> TransformStep<Output, Failure> {
            defer { previous = input }
            if let previous, predicate(previous, input) {
                return .skip
            }
            return .emit(input)
        }

        func failure(from upstreamFailure: Failure) -> Failure { upstreamFailure }
    }
}
