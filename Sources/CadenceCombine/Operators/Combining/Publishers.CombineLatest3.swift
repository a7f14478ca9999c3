extension Publisher {
    /// Combines the latest elements of this publisher and two others each time any of them emits.
    public func combineLatest<P, Q>(_ publisher1: P, _ publisher2: Q) -> Publishers.CombineLatest3<Self, P, Q>
    where P: Publisher, Q: Publisher, Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2)
    }

    /// Combines the latest elements of this publisher and two others each time any of them emits.
    ///
    /// Each combined output goes through `transform` before it is published.
    public func combineLatest<P, Q, T>(
        _ publisher1: P, _ publisher2: Q,
        _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T>
    where P: Publisher, Q: Publisher, Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2).map(transform)
    }
}

extension Publishers {
    /// A publisher that receives and combines the latest elements from three publishers.
    ///
    /// It emits nothing until every upstream has produced a value, then a tuple of the latest values each time
    /// one of them produces while the downstream has demand (a value that arrives without demand only updates the
    /// latest values). It passes every downstream request to every upstream, finishes when all of them have
    /// finished, and fails at the first failure.
    public struct CombineLatest3<A, B, C>: Publisher
    where A: Publisher, B: Publisher, C: Publisher, A.Failure == B.Failure, B.Failure == C.Failure {
        public typealias Output = (A.Output, B.Output, C.Output)
        public typealias Failure = A.Failure

        /// A publisher to combine.
        public let a: A

        /// A second publisher to combine.
        public let b: B

        /// A third publisher to combine.
        public let c: C

        /// Creates a publisher that combines three upstream publishers.
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        public func receive<S: Subscriber>(subscriber: S)
        where C.Failure == S.Failure, S.Input == (A.Output, B.Output, C.Output) {
            typealias Storage = CombineLatestStorage3<A.Output, B.Output, C.Output>
            let inner = CombineLatestInner<Storage, S>(downstream: subscriber, arity: 3)
            a.subscribe(inner.side(0) { $0.a.replaceAll(with: $1) })
            b.subscribe(inner.side(1) { $0.b.replaceAll(with: $1) })
            c.subscribe(inner.side(2) { $0.c.replaceAll(with: $1) })
            inner.start()
        }
    }
}

extension Publishers.CombineLatest3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
