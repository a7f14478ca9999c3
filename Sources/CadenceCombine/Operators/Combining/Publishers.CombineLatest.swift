extension Publisher {
    /// Combines the latest elements of this publisher and another each time any of them emits.
    public func combineLatest<P>(_ other: P) -> Publishers.CombineLatest<Self, P>
    where P: Publisher, Failure == P.Failure {
        Publishers.CombineLatest(self, other)
    }

    /// Combines the latest elements of this publisher and another each time any of them emits.
    ///
    /// Each combined output goes through `transform` before it is published.
    public func combineLatest<P, T>(
        _ other: P,
        _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T>
    where P: Publisher, Failure == P.Failure {
        Publishers.CombineLatest(self, other).map(transform)
    }
}

extension Publishers {
    /// A publisher that receives and combines the latest elements from two publishers.
    ///
    /// It emits nothing until every upstream has produced a value, then a tuple of the latest values each time
    /// one of them produces while the downstream has demand (a value that arrives without demand only updates the
    /// latest values). It passes every downstream request to every upstream, finishes when all of them have
    /// finished, and fails at the first failure.
    public struct CombineLatest<A, B>: Publisher
    where A: Publisher, B: Publisher, A.Failure == B.Failure {
        public typealias Output = (A.Output, B.Output)
        public typealias Failure = A.Failure

        /// A publisher to combine.
        public let a: A

        /// A second publisher to combine.
        public let b: B

        /// Creates a publisher that combines two upstream publishers.
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        public func receive<S: Subscriber>(subscriber: S)
        where B.Failure == S.Failure, S.Input == (A.Output, B.Output) {
            typealias Storage = CombineLatestStorage2<A.Output, B.Output>
            let inner = CombineLatestInner<Storage, S>(downstream: subscriber, arity: 2)
            a.subscribe(inner.side(0) { $0.a.replaceAll(with: $1) })
            b.subscribe(inner.side(1) { $0.b.replaceAll(with: $1) })
            inner.start()
        }
    }
}

extension Publishers.CombineLatest: Equatable where A: Equatable, B: Equatable {}
