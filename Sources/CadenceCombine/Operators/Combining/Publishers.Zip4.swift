extension Publisher {
    /// Combines elements from this publisher and three others, pairing the n-th value of each.
    public func zip<P, Q, R>(_ publisher1: P, _ publisher2: Q, _ publisher3: R) -> Publishers.Zip4<Self, P, Q, R>
    where
        P: Publisher, Q: Publisher, R: Publisher, Failure == P.Failure, P.Failure == Q.Failure,
        Q.Failure == R.Failure
    {
        Publishers.Zip4(self, publisher1, publisher2, publisher3)
    }

    /// Combines elements from this publisher and three others, pairing the n-th value of each.
    ///
    /// Each combined output goes through `transform` before it is published.
    public func zip<P, Q, R, T>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R,
        _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.Zip4<Self, P, Q, R>, T>
    where
        P: Publisher, Q: Publisher, R: Publisher, Failure == P.Failure, P.Failure == Q.Failure,
        Q.Failure == R.Failure
    {
        Publishers.Zip4(self, publisher1, publisher2, publisher3).map(transform)
    }
}

extension Publishers {
    /// A publisher created by applying the zip function to four upstream publishers.
    ///
    /// It emits a tuple of the oldest unconsumed value of every upstream once each has produced one, passes every
    /// downstream request to every upstream, finishes as soon as an upstream that has finished has no value left
    /// waiting, and fails at the first failure.
    public struct Zip4<A, B, C, D>: Publisher
    where
        A: Publisher, B: Publisher, C: Publisher, D: Publisher, A.Failure == B.Failure, B.Failure == C.Failure,
        C.Failure == D.Failure
    {
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        public typealias Failure = A.Failure

        /// A publisher to zip.
        public let a: A

        /// A second publisher to zip.
        public let b: B

        /// A third publisher to zip.
        public let c: C

        /// A fourth publisher to zip.
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
            typealias Storage = ZipStorage4<A.Output, B.Output, C.Output, D.Output>
            let inner = ZipInner<Storage, S>(downstream: subscriber, arity: 4)
            a.subscribe(inner.side(0) { $0.a.append($1) })
            b.subscribe(inner.side(1) { $0.b.append($1) })
            c.subscribe(inner.side(2) { $0.c.append($1) })
            d.subscribe(inner.side(3) { $0.d.append($1) })
            inner.start()
        }
    }
}

extension Publishers.Zip4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
