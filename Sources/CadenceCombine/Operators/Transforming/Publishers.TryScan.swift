extension Publisher {
    /// Transforms elements from the upstream publisher by providing the current element to an error-throwing closure
    /// along with the last value returned by the closure, and publishes each result.
    ///
    /// If the closure throws, the publisher cancels the upstream and fails with the thrown error.
    ///
    /// - Parameters:
    ///   - initialResult: The previous result passed to the closure with the first element.
    ///   - nextPartialResult: An error-throwing closure that takes the previous result and the next element, and
    ///     returns a new one.
    /// - Returns: A publisher that transforms elements by applying a closure that receives its previous return value
    ///   and the next element from the upstream publisher.
    public func tryScan<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryScan<Self, T> {
        Publishers.TryScan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// A publisher that transforms elements from the upstream publisher by providing the current element to a failable
    /// closure along with the last value returned by the closure.
    ///
    /// Demand passes upstream unchanged; each value is answered with the downstream's own answer.
    public struct TryScan<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The previous result passed to `nextPartialResult` with the first element.
        public let initialResult: Output

        /// An error-throwing closure that takes the previous result and the next element, and returns the next result.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates a publisher that publishes each running result of `nextPartialResult`, failing if it throws.
        public init(
            upstream: Upstream,
            initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches the subscriber to the upstream through this operator.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.subscribe(
                TransformSubscription(
                    downstream: subscriber,
                    operation: Step(nextPartialResult: nextPartialResult),
                    initialState: initialResult))
        }
    }
}

extension Publishers.TryScan {
    private struct Step: TransformOperation {
        let nextPartialResult: (Output, Upstream.Output) throws -> Output

        static var description: String { "TryScan" }

        static var conduct: TransformConduct { .passThrough(failsAfterEnd: false) }

        /// As Combine's: the downstream, the subscription's status and the running result.
        static func mirrorChildren(downstream: Any, status: Any, state result: Output) -> [Mirror.Child] {
            [("downstream", downstream), ("status", status), ("result", result)]
        }

        func step(_ input: Upstream.Output, state result: inout Output) -> TransformStep<Output, any Error> {
            do {
                result = try nextPartialResult(result, input)
                return .emit(result)
            } catch {
                return .fail(error)
            }
        }

        func failure(from upstreamFailure: Upstream.Failure) -> any Error { upstreamFailure }
    }
}
