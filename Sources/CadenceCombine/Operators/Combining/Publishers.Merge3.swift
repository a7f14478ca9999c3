extension Publisher {
    /// Combines elements from this publisher with those from two other publishers, delivering an interleaved
    /// sequence of elements.
    ///
    /// The merged publisher finishes when all the publishers have finished, and fails as soon as any fails.
    public func merge<B, C>(with b: B, _ c: C) -> Publishers.Merge3<Self, B, C>
    where
        B: Publisher, C: Publisher, Failure == B.Failure, Output == B.Output, B.Failure == C.Failure,
        B.Output == C.Output
    {
        Publishers.Merge3(self, b, c)
    }
}

extension Publishers {
    /// A publisher created by applying the merge function to three upstream publishers.
    ///
    /// Each upstream is asked for `.max(1)` at a time (`.unlimited` once the downstream asks for `.unlimited`), so
    /// at most one value per upstream waits for downstream demand.
    public struct Merge3<A, B, C>: Publisher
    where
        A: Publisher, B: Publisher, C: Publisher, A.Failure == B.Failure, A.Output == B.Output,
        B.Failure == C.Failure, B.Output == C.Output
    {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        /// A publisher to merge.
        public let a: A

        /// A second publisher to merge.
        public let b: B

        /// A third publisher to merge.
        public let c: C

        /// Creates a publisher that merges three upstream publishers.
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        public func receive<S: Subscriber>(subscriber: S) where C.Failure == S.Failure, C.Output == S.Input {
            let inner = MergeInner(downstream: subscriber, upstreamCount: 3)
            subscriber.receive(subscription: inner)
            a.subscribe(inner.side(0))
            b.subscribe(inner.side(1))
            c.subscribe(inner.side(2))
        }

        /// Merges one more publisher into this one, giving a single flat merge.
        public func merge<P>(with other: P) -> Publishers.Merge4<A, B, C, P>
        where P: Publisher, C.Failure == P.Failure, C.Output == P.Output {
            Publishers.Merge4(a, b, c, other)
        }

        /// Merges two more publishers into this one, giving a single flat merge.
        public func merge<Z, Y>(
            with z: Z, _ y: Y
        )
            -> Publishers.Merge5<A, B, C, Z, Y>
        where
            Z: Publisher, Y: Publisher, C.Failure == Z.Failure, C.Output == Z.Output, Z.Failure == Y.Failure,
            Z.Output == Y.Output
        {
            Publishers.Merge5(a, b, c, z, y)
        }

        /// Merges three more publishers into this one, giving a single flat merge.
        public func merge<Z, Y, X>(
            with z: Z, _ y: Y, _ x: X
        )
            -> Publishers.Merge6<A, B, C, Z, Y, X>
        where
            Z: Publisher, Y: Publisher, X: Publisher, C.Failure == Z.Failure, C.Output == Z.Output,
            Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output
        {
            Publishers.Merge6(a, b, c, z, y, x)
        }

        /// Merges four more publishers into this one, giving a single flat merge.
        public func merge<Z, Y, X, W>(
            with z: Z, _ y: Y, _ x: X, _ w: W
        )
            -> Publishers.Merge7<A, B, C, Z, Y, X, W>
        where
            Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, C.Failure == Z.Failure, C.Output == Z.Output,
            Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output,
            X.Failure == W.Failure, X.Output == W.Output
        {
            Publishers.Merge7(a, b, c, z, y, x, w)
        }

        /// Merges five more publishers into this one, giving a single flat merge.
        public func merge<Z, Y, X, W, V>(
            with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V
        )
            -> Publishers.Merge8<A, B, C, Z, Y, X, W, V>
        where
            Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher, C.Failure == Z.Failure,
            C.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure,
            Y.Output == X.Output, X.Failure == W.Failure, X.Output == W.Output, W.Failure == V.Failure,
            W.Output == V.Output
        {
            Publishers.Merge8(a, b, c, z, y, x, w, v)
        }
    }
}

extension Publishers.Merge3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
