extension Publisher {
    /// Combines elements from this publisher with those from five other publishers, delivering an interleaved
    /// sequence of elements.
    ///
    /// The merged publisher finishes when all the publishers have finished, and fails as soon as any fails.
    public func merge<B, C, D, E, F>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F
    )
        -> Publishers.Merge6<Self, B, C, D, E, F>
    where
        B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, Failure == B.Failure,
        Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output,
        D.Failure == E.Failure, D.Output == E.Output, E.Failure == F.Failure, E.Output == F.Output
    {
        Publishers.Merge6(self, b, c, d, e, f)
    }
}

extension Publishers {
    /// A publisher created by applying the merge function to six upstream publishers.
    ///
    /// Each upstream is asked for `.max(1)` at a time (`.unlimited` once the downstream asks for `.unlimited`), so
    /// at most one value per upstream waits for downstream demand.
    public struct Merge6<A, B, C, D, E, F>: Publisher
    where
        A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, A.Failure == B.Failure,
        A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure,
        C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output, E.Failure == F.Failure,
        E.Output == F.Output
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

        /// A sixth publisher to merge.
        public let f: F

        /// Creates a publisher that merges six upstream publishers.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
        }

        public func receive<S: Subscriber>(subscriber: S) where F.Failure == S.Failure, F.Output == S.Input {
            let inner = MergeInner(downstream: subscriber, upstreamCount: 6)
            subscriber.receive(subscription: inner)
            a.subscribe(inner.side(0))
            b.subscribe(inner.side(1))
            c.subscribe(inner.side(2))
            d.subscribe(inner.side(3))
            e.subscribe(inner.side(4))
            f.subscribe(inner.side(5))
        }

        /// Merges one more publisher into this one, giving a single flat merge.
        public func merge<P>(with other: P) -> Publishers.Merge7<A, B, C, D, E, F, P>
        where P: Publisher, F.Failure == P.Failure, F.Output == P.Output {
            Publishers.Merge7(a, b, c, d, e, f, other)
        }

        /// Merges two more publishers into this one, giving a single flat merge.
        public func merge<Z, Y>(
            with z: Z, _ y: Y
        )
            -> Publishers.Merge8<A, B, C, D, E, F, Z, Y>
        where
            Z: Publisher, Y: Publisher, F.Failure == Z.Failure, F.Output == Z.Output, Z.Failure == Y.Failure,
            Z.Output == Y.Output
        {
            Publishers.Merge8(a, b, c, d, e, f, z, y)
        }
    }
}

extension Publishers.Merge6: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable {}
