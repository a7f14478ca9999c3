extension Publisher {
    /// Combines elements from this publisher with those from four other publishers, delivering an interleaved
    /// sequence of elements.
    ///
    /// The merged publisher finishes when all the publishers have finished, and fails as soon as any fails.
    public func merge<B, C, D, E>(with b: B, _ c: C, _ d: D, _ e: E) -> Publishers.Merge5<Self, B, C, D, E>
    where
        B: Publisher, C: Publisher, D: Publisher, E: Publisher, Failure == B.Failure, Output == B.Output,
        B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output,
        D.Failure == E.Failure, D.Output == E.Output
    {
        Publishers.Merge5(self, b, c, d, e)
    }
}

extension Publishers {
    /// A publisher created by applying the merge function to five upstream publishers.
    ///
    /// Each upstream is asked for `.max(1)` at a time (`.unlimited` once the downstream asks for `.unlimited`), so
    /// at most one value per upstream waits for downstream demand.
    public struct Merge5<A, B, C, D, E>: Publisher
    where
        A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, A.Failure == B.Failure,
        A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure,
        C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output
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

        /// A fifth publisher to merge.
        public let e: E

        /// Creates a publisher that merges five upstream publishers.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
        }

        public func receive<S: Subscriber>(subscriber: S) where E.Failure == S.Failure, E.Output == S.Input {
            let inner = MergeInner(downstream: subscriber, upstreamCount: 5)
            subscriber.receive(subscription: inner)
            a.subscribe(inner.side(0))
            b.subscribe(inner.side(1))
            c.subscribe(inner.side(2))
            d.subscribe(inner.side(3))
            e.subscribe(inner.side(4))
        }

        /// Merges one more publisher into this one, giving a single flat merge.
        public func merge<P>(with other: P) -> Publishers.Merge6<A, B, C, D, E, P>
        where P: Publisher, E.Failure == P.Failure, E.Output == P.Output {
            Publishers.Merge6(a, b, c, d, e, other)
        }

        /// Merges two more publishers into this one, giving a single flat merge.
        public func merge<Z, Y>(
            with z: Z, _ y: Y
        )
            -> Publishers.Merge7<A, B, C, D, E, Z, Y>
        where
            Z: Publisher, Y: Publisher, E.Failure == Z.Failure, E.Output == Z.Output, Z.Failure == Y.Failure,
            Z.Output == Y.Output
        {
            Publishers.Merge7(a, b, c, d, e, z, y)
        }

        /// Merges three more publishers into this one, giving a single flat merge.
        public func merge<Z, Y, X>(
            with z: Z, _ y: Y, _ x: X
        )
            -> Publishers.Merge8<A, B, C, D, E, Z, Y, X>
        where
            Z: Publisher, Y: Publisher, X: Publisher, E.Failure == Z.Failure, E.Output == Z.Output,
            Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output
        {
            Publishers.Merge8(a, b, c, d, e, z, y, x)
        }
    }
}

extension Publishers.Merge5: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable {}
