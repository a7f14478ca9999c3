extension Publisher {
    /// Republishes elements while an error-throwing predicate closure indicates publishing should continue.
    ///
    /// When the predicate first returns `false`, the publisher cancels the upstream and finishes; when it throws,
    /// the publisher cancels the upstream and fails with the thrown error.
    ///
    /// - Parameter predicate: A closure that returns whether to keep republishing elements, or throws.
    /// - Returns: A publisher that passes through elements until the predicate returns `false` or throws.
    public func tryPrefix(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryPrefixWhile<Self> {
        Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that republishes elements while an error-throwing predicate closure indicates publishing should
    /// continue.
    ///
    /// Demand passes through unchanged, and the subscriber's answer for each value goes back upstream. The first value
    /// the predicate rejects is not published: the upstream is cancelled and the subscriber finishes, or fails with
    /// the error the predicate threw.
    public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that determines whether publishing should continue.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that republishes elements of `upstream` while `predicate` returns `true`.
        public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber to the upstream through this operator.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                TransformSubscription(downstream: subscriber, operation: Step(predicate: predicate), initialState: ()))
        }
    }
}

extension Publishers.TryPrefixWhile {
    /// Emits each value the predicate accepts, finishes on the first it rejects, and fails when it throws.
    private struct Step: TransformOperation {
        let predicate: (Upstream.Output) throws -> Bool

        static var description: String { "TryPrefixWhile" }

        static var conduct: TransformConduct { .strict }

        static var rejectsZeroDemand: Bool { true }

        func step(_ input: Upstream.Output, state: inout Void) -> TransformStep<Upstream.Output, any Error> {
            do {
                return try predicate(input) ? .emit(input) : .finish
            } catch {
                return .fail(error)
            }
        }

        func failure(from upstreamFailure: Upstream.Failure) -> any Error { upstreamFailure }
    }
}
