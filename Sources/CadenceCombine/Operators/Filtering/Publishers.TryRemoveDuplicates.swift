extension Publisher {
    /// Publishes only elements that don't match the previous element, as evaluated by a provided error-throwing
    /// closure.
    ///
    /// If the closure throws, the publisher cancels the upstream and fails with the thrown error.
    ///
    /// - Parameter predicate: A closure that returns `true` when its second argument duplicates its first, or throws.
    /// - Returns: A publisher that consumes — rather than publishes — duplicate elements.
    public func tryRemoveDuplicates(
        by predicate: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryRemoveDuplicates<Self> {
        Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that publishes only elements that don't match the previous element, as evaluated by a provided
    /// error-throwing closure.
    ///
    /// Demand passes upstream unchanged; a duplicate asks the upstream for one more (`.max(1)`).
    public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// An error-throwing closure to evaluate whether two elements are equivalent, for purposes of filtering.
        public let predicate: (Output, Output) throws -> Bool

        /// Creates a publisher that publishes only elements that `predicate` doesn't judge duplicates of the previous
        /// element, failing if it throws.
        public init(upstream: Upstream, predicate: @escaping (Output, Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber to the upstream through this operator.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.subscribe(
                TransformSubscription(downstream: subscriber, operation: Step(predicate: predicate), initialState: nil))
        }
    }
}

extension Publishers.TryRemoveDuplicates {
    private struct Step: TransformOperation {
        let predicate: (Output, Output) throws -> Bool

        static var description: String { "TryRemoveDuplicates" }

        static var conduct: TransformConduct { .strict }

        static var rejectsZeroDemand: Bool { true }

        /// As Combine's: the downstream and the last value seen (`nil` before the first).
        static func mirrorChildren(downstream: Any, status: Any, state last: Output?) -> [Mirror.Child] {
            [("downstream", downstream), ("last", last as Any)]
        }

        func step(_ input: Output, state previous: inout Output?) -> TransformStep<Output, any Error> {
            defer { previous = input }
            guard let previous else { return .emit(input) }
            do {
                return try predicate(previous, input) ? .skip : .emit(input)
            } catch {
                return .fail(error)
            }
        }

        func failure(from upstreamFailure: Upstream.Failure) -> any Error { upstreamFailure }
    }
}
