extension Publisher {
    /// Republishes all elements that match a provided error-throwing closure.
    ///
    /// If the closure throws, the publisher cancels the upstream and fails with the thrown error. A value the closure
    /// rejects is answered with `.max(1)`, so the upstream sends one more in its place.
    ///
    /// - Parameter isIncluded: A closure that takes one element and returns whether to republish it, or throws.
    /// - Returns: A publisher that republishes all elements that satisfy the closure.
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Self> {
        Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
    }
}

extension Publishers {
    /// A publisher that republishes all elements that match a provided error-throwing closure.
    ///
    /// Demand passes upstream unchanged; a rejected value asks the upstream for one more (`.max(1)`).
    public struct TryFilter<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// An error-throwing closure that indicates whether to republish an element.
        public let isIncluded: (Upstream.Output) throws -> Bool

        /// Creates a publisher that republishes the upstream elements that `isIncluded` accepts, failing if it throws.
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Attaches the subscriber to the upstream through this operator.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.subscribe(
                TransformSubscription(
                    downstream: subscriber, operation: Step(isIncluded: isIncluded), initialState: ()))
        }
    }
}

extension Publishers.TryFilter {
    /// Fuses a try-filter and a following filter into one try-filter.
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }

    /// Fuses two try-filters into one.
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }
}

extension Publishers.TryFilter {
    private struct Step: TransformOperation {
        let isIncluded: (Upstream.Output) throws -> Bool

        static var description: String { "TryFilter" }

        static var conduct: TransformConduct { .strict }

        static var rejectsZeroDemand: Bool { true }

        func step(_ input: Upstream.Output, state: inout Void) -> TransformStep<Upstream.Output, any Error> {
            do {
                return try isIncluded(input) ? .emit(input) : .skip
            } catch {
                return .fail(error)
            }
        }

        func failure(from upstreamFailure: Upstream.Failure) -> any Error { upstreamFailure }
    }
}
