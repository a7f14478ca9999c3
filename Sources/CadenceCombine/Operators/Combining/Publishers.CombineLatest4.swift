extension Publisher {
    /// Combines the latest elements of this publisher and three others each time any of them emits.
    public func combineLatest<P, Q, R>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R
    )
        -> Publishers.CombineLatest4<Self, P, Q, R>
    where
        P: Publisher, Q: Publisher, R: Publisher, Failure == P.Failure, P.Failure == Q.Failure,
        Q.Failure == R.Failure
    {
        Publishers.CombineLatest4(self, publisher1, publisher2, publisher3)
    }

    /// Combines the latest elements of this publisher and three others each time any of them emits.
    ///
    /// Each combined output goes through `transform` before it is published.
    public func combineLatest<P, Q, R, T>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R,
        _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest4<Self, P, Q, R>, T>
    where
        P: Publisher, Q: Publisher, R: Publisher, Failure == P.Failure, P.Failure == Q.Failure,
        Q.Failure == R.Failure
    {
        Publishers.CombineLatest4(self, publisher1, publisher2, publisher3).map(transform)
    }
}

extension Publishers {
    /// A publisher that receives and combines the latest elements from four publishers.
    ///
    /// It emits nothing until every upstream has produced a value, then a tuple of the latest values each time
    /// one of them produces while the downstream has demand (a value that arrives without demand only updates the
    /// latest values). It passes every downstream request to every upstream, finishes when all of them have
    /// finished, and fails at the first failure.
    public struct CombineLatest4<A, B, C, D>: Publisher
    where
        A: Publisher, B: Publisher, C: Publisher, D: Publisher, A.Failure == B.Failure, B.Failure == C.Failure,
        C.Failure == D.Failure
    {
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        public typealias Failure = A.Failure

        /// A publisher to combine.
        public let a: A

        /// A second publisher to combine.
        public let b: B

        /// A third publisher to combine.
        public let c: C

        /// A fourth publisher to combine.
        public let d: D

        /// Creates a publisher that combines four upstream publishers.
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        public func receive<S: Subscriber>(subscriber: S)
        where D.Failure == S.Failure, S.Input == (A.Output, B.Output, C.Output, D.Output) {
            typealias Storage = CombineLatestStorage4<A.Output, B.Output, C.Output, D.Output>
            let inner = CombineLatestInner<Storage, S>(downstream: subscriber, arity: 4)
            a.subscribe(inner.side(0) { $0.a.replaceAll(with: $1) })
            b.subscribe(inner.side(1) { $0.b.replaceAll(with: $1) })
            c.subscribe(inner.side(2) { $0.c.replaceAll(with: $1) })
            d.subscribe(inner.side(3) { $0.d.replaceAll(with: $1) })
            inner.start()
        }
    }
}

extension Publishers.CombineLatest4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
