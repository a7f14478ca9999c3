extension Publisher {
    /// Combines elements from this publisher with those from three other publishers, delivering an interleaved
    /// sequence of elements.
    ///
    /// The merged publisher finishes when all the publishers have finished, and fails as soon as any fails.
    public func merge<B, C, D>(with b: B, _ c: C, _ d: D) -> Publishers.Merge4<Self, B, C, D>
    where
        B: Publisher, C: Publisher, D: Publisher, Failure == B.Failure, Output == B.Output, B.Failure == C.Failure,
        B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output
    {
        Publishers.Merge4(self, b, c, d)
    }
}

extension Publishers {
    /// A publisher created by applying the merge function to four upstream publishers.
    ///
    /// Each upstream is asked for `.max(1)` at a time (`.unlimited` once the downstream asks for `.unlimited`), so
    /// at most one value per upstream waits for downstream demand.
    public struct Merge4<A, B, C, D>: Publisher
    where
        A: Publisher, B: Publisher, C: Publisher, D: Publisher, A.Failure == B.Failure, A.Output == B.Output,
        B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output
    {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        /// A publisher to merge.
        public let a: A

        /// A second publisher to merge.
        public let b: B

        /// A third publisher to merge.
        public let c: C

        /// A fourth publisher to merge.
        public let d: D

        /// Creates a publisher that merges four upstream publishers.
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        public func receive<S: Subscriber>(subscriber: S) where D.Failure == S.Failure, D.Output == S.Input {
            let inner = MergeInner(downstream: subscriber, upstreamCount: 4)
            subscriber.receive(subscription: inner)
            a.subscribe(inner.side(0))
            b.subscribe(inner.side(1))
            c.subscribe(inner.side(2))
            d.subscribe(inner.side(3))
        }

        /// Merges one more publisher into this one, giving a single flat merge.
        public func merge<P>(with other: P) -> Publishers.Merge5<A, B, C, D, P>
        where P: Publisher, D.Failure == P.Failure, D.Output == P.Output {
            Publishers.Merge5(a, b, c, d, other)
        }

        /// Merges two more publishers into this one, giving a single flat merge.
        public func merge<Z, Y>(
            with z: Z, _ y: Y
        )
            -> Publishers.Merge6<A, B, C, D, Z, Y>
        where
            Z: Publisher, Y: Publisher, D.Failure == Z.Failure, D.Output == Z.Output, Z.Failure == Y.Failure,
            Z.Output == Y.Output
        {
            Publishers.Merge6(a, b, c, d, z, y)
        }

        /// Merges three more publishers into this one, giving a single flat merge.
        public func merge<Z, Y, X>(
            with z: Z, _ y: Y, _ x: X
        )
            -> Publishers.Merge7<A, B, C, D, Z, Y, X>
        where
            Z: Publisher, Y: Publisher, X: Publisher, D.Failure == Z.Failure, D.Output == Z.Output,
            Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output
        {
            Publishers.Merge7(a, b, c, d, z, y, x)
        }

        /// Merges four more publishers into this one, giving a single flat merge.
        public func merge<Z, Y, X, W>(
            with z: Z, _ y: Y, _ x: X, _ w: W
        )
            -> Publishers.Merge8<A, B, C, D, Z, Y, X, W>
        where
            Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, D.Failure == Z.Failure, D.Output == Z.Output,
            Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output,
            X.Failure == W.Failure, X.Output == W.Output
        {
            Publishers.Merge8(a, b, c, d, z, y, x, w)
        }
    }
}

extension Publishers.Merge4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
