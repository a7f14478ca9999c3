extension Publisher {
    /// Combines elements from this publisher with those from six other publishers, delivering an interleaved
    /// sequence of elements.
    ///
    /// The merged publisher finishes when all the publishers have finished, and fails as soon as any fails.
    public func merge<B, C, D, E, F, G>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G
    )
        -> Publishers.Merge7<Self, B, C, D, E, F, G>
    where
        B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, Failure == B.Failure,
        Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output,
        D.Failure == E.Failure, D.Output == E.Output, E.Failure == F.Failure, E.Output == F.Output,
        F.Failure == G.Failure, F.Output == G.Output
    {
        Publishers.Merge7(self, b, c, d, e, f, g)
    }
}

extension Publishers {
    /// A publisher created by applying the merge function to seven upstream publishers.
    ///
    /// Each upstream is asked for `.max(1)` at a time (`.unlimited` once the downstream asks for `.unlimited`), so
    /// at most one value per upstream waits for downstream demand.
    public struct Merge7<A, B, C, D, E, F, G>: Publisher
    where
        A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher,
        A.Failure == B.Failure, A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output,
        C.Failure == D.Failure, C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output,
        E.Failure == F.Failure, E.Output == F.Output, F.Failure == G.Failure, F.Output == G.Output
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

        /// A seventh publisher to merge.
        public let g: G

        /// Creates a publisher that merges seven upstream publishers.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
        }

        public func receive<S: Subscriber>(subscriber: S) where G.Failure == S.Failure, G.Output == S.Input {
            let inner = MergeInner(downstream: subscriber, upstreamCount: 7)
            subscriber.receive(subscription: inner)
            a.subscribe(inner.side(0))
            b.subscribe(inner.side(1))
            c.subscribe(inner.side(2))
            d.subscribe(inner.side(3))
            e.subscribe(inner.side(4))
            f.subscribe(inner.side(5))
            g.subscribe(inner.side(6))
        }

        /// Merges one more publisher into this one, giving a single flat merge.
        public func merge<P>(with other: P) -> Publishers.Merge8<A, B, C, D, E, F, G, P>
        where P: Publisher, G.Failure == P.Failure, G.Output == P.Output {
            Publishers.Merge8(a, b, c, d, e, f, g, other)
        }
    }
}

extension Publishers.Merge7: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable {}
