extension Publisher {
    /// Omits elements from the upstream publisher until an error-throwing closure returns false, before
    /// republishing all remaining elements.
    ///
    /// If the closure throws, the publisher cancels the upstream and fails with the thrown error.
    ///
    /// - Parameter predicate: A closure that returns whether to drop the element, or throws.
    /// - Returns: A publisher that skips over elements until the closure returns `false`, then republishes all
    ///   remaining elements.
    public func tryDrop(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryDropWhile<Self> {
        Publishers.TryDropWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that omits elements from an upstream publisher until a given error-throwing closure returns
    /// false.
    ///
    /// Demand: requests pass through unchanged, and each dropped value is answered with `.max(1)`. When the predicate
    /// throws, the upstream is cancelled and the subscriber gets the error.
    public struct TryDropWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that indicates whether to drop the element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that drops elements of `upstream` while `predicate` returns `true`.
        public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
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

extension Publishers.TryDropWhile {
    /// Drops values while the predicate holds, and fails when it throws; its state is whether it still drops. Once
    /// the predicate returned false it is not called again.
    private struct Step: TransformOperation {
        let predicate: (Upstream.Output) throws -> Bool

        static var description: String { "TryDropWhile" }

        static var conduct: TransformConduct { .lenient }

        static var rejectsZeroDemand: Bool { true }

        func step(_ input: Upstream.Output, state isDropping: inout Bool) -> TransformStep<Upstream.Output, any Error> {
            if isDropping {
                do {
                    if try predicate(input) {
                        return .skip
                    }
                } catch {
                    return .fail(error)
                }
                isDropping = false
            }
            return .emit(input)
        }

        func failure(from upstreamFailure: Upstream.Failure) -> any Error { upstreamFailure }
    }
}
