extension Publisher {
    /// Combines elements from this publisher and another, pairing the n-th value of each.
    public func zip<P>(_ other: P) -> Publishers.Zip<Self, P>
    where P: Publisher, Failure == P.Failure {
        Publishers.Zip(self, other)
    }

    /// Combines elements from this publisher and another, pairing the n-th value of each.
    ///
    /// Each combined output goes through `transform` before it is published.
    public func zip<P, T>(
        _ other: P,
        _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.Zip<Self, P>, T>
    where P: Publisher, Failure == P.Failure {
        Publishers.Zip(self, other).map(transform)
    }
}

extension Publishers {
    /// A publisher created by applying the zip function to two upstream publishers.
    ///
    /// It emits a tuple of the oldest unconsumed value of every upstream once each has produced one, passes every
    /// downstream request to every upstream, finishes as soon as an upstream that has finished has no value left
    /// waiting, and fails at the first failure.
    public struct Zip<A, B>: Publisher
    where A: Publisher, B: Publisher, A.Failure == B.Failure {
        public typealias Output = (A.Output, B.Output)
        public typealias Failure = A.Failure

        /// A publisher to zip.
        public let a: A

        /// A second publisher to zip.
        public let b: B

        /// Creates a publisher that combines two upstream publishers.
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        public func receive<S: Subscriber>(subscriber: S)
        where B.Failure == S.Failure, S.Input == (A.Output, B.Output) {
            typealias Storage = ZipStorage2<A.Output, B.Output>
            let inner = ZipInner<Storage, S>(downstream: subscriber, arity: 2)
            a.subscribe(inner.side(0) { $0.a.append($1) })
            b.subscribe(inner.side(1) { $0.b.append($1) })
            inner.start()
        }
    }
}

extension Publishers.Zip: Equatable where A: Equatable, B: Equatable {}
