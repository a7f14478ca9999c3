extension Publisher {
    /// Republishes elements while a predicate closure indicates publishing should continue.
    ///
    /// When the predicate first returns `false`, the publisher cancels the upstream and finishes.
    ///
    /// ```swift
    /// [0, 1, 2, 3, 0].publisher
    ///     .prefix { $0 < 2 }
    ///     .sink { print($0) } // prints 0, then 1
    /// ```
    ///
    /// - Parameter predicate: A closure that returns whether to keep republishing elements.
    /// - Returns: A publisher that passes through elements until the predicate indicates publishing should finish.
    public func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
        Publishers.PrefixWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that republishes elements while a predicate closure indicates publishing should continue.
    ///
    /// Demand passes through unchanged, and the subscriber's answer for each value goes back upstream. The first value
    /// the predicate rejects is not published: the upstream is cancelled and the subscriber finishes.
    public struct PrefixWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that determines whether to continue republishing elements.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that republishes elements of `upstream` while `predicate` returns `true`.
        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
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

extension Publishers.PrefixWhile {
    /// Emits each value the predicate accepts and finishes on the first it rejects.
    private struct Step: TransformOperation {
        let predicate: (Upstream.Output) -> Bool

        static var description: String { "PrefixWhile" }

        static var conduct: TransformConduct { .strict }

        static var rejectsZeroDemand: Bool { true }

        func step(_ input: Upstream.Output, state: inout Void) -> TransformStep<Upstream.Output, Failure> {
            predicate(input) ? .emit(input) : .finish
        }

        func failure(from upstreamFailure: Failure) -> Failure { upstreamFailure }
    }
}
