extension Publisher {
    /// Combines elements from this publisher and two others, pairing the n-th value of each.
    public func zip<P, Q>(_ publisher1: P, _ publisher2: Q) -> Publishers.Zip3<Self, P, Q>
    where P: Publisher, Q: Publisher, Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.Zip3(self, publisher1, publisher2)
    }

    /// Combines elements from this publisher and two others, pairing the n-th value of each.
    ///
    /// Each combined output goes through `transform` before it is published.
    public func zip<P, Q, T>(
        _ publisher1: P, _ publisher2: Q,
        _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.Zip3<Self, P, Q>, T>
    where P: Publisher, Q: Publisher, Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.Zip3(self, publisher1, publisher2).map(transform)
    }
}

extension Publishers {
    /// A publisher created by applying the zip function to three upstream publishers.
    ///
    /// It emits a tuple of the oldest unconsumed value of every upstream once each has produced one, passes every
    /// downstream request to every upstream, finishes as soon as an upstream that has finished has no value left
    /// waiting, and fails at the first failure.
    public struct Zip3<A, B, C>: Publisher
    where A: Publisher, B: Publisher, C: Publisher, A.Failure == B.Failure, B.Failure == C.Failure {
        public typealias Output = (A.Output, B.Output, C.Output)
        public typealias Failure = A.Failure

        /// A publisher to zip.
        public let a: A

        /// A second publisher to zip.
        public let b: B

        /// A third publisher to zip.
        public let c: C

        /// Creates a publisher that combines three upstream publishers.
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        public func receive<S: Subscriber>(subscriber: S)
        where C.Failure == S.Failure, S.Input == (A.Output, B.Output, C.Output) {
            typealias Storage = ZipStorage3<A.Output, B.Output, C.Output>
            let inner = ZipInner<Storage, S>(downstream: subscriber, arity: 3)
            a.subscribe(inner.side(0) { $0.a.append($1) })
            b.subscribe(inner.side(1) { $0.b.append($1) })
            c.subscribe(inner.side(2) { $0.c.append($1) })
            inner.start()
        }
    }
}

extension Publishers.Zip3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
