extension Publisher {
    /// Combines elements from this publisher with those from another publisher, delivering an interleaved sequence
    /// of elements.
    ///
    /// The merged publisher finishes when both publishers have finished, and fails as soon as either fails.
    public func merge<P>(with other: P) -> Publishers.Merge<Self, P>
    where P: Publisher, Failure == P.Failure, Output == P.Output {
        Publishers.Merge(self, other)
    }
}

extension Publishers {
    /// A publisher created by applying the merge function to two upstream publishers.
    ///
    /// Each upstream is asked for `.max(1)` at a time (`.unlimited` once the downstream asks for `.unlimited`), so
    /// at most one value per upstream waits for downstream demand.
    public struct Merge<A, B>: Publisher
    where A: Publisher, B: Publisher, A.Failure == B.Failure, A.Output == B.Output {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        /// A publisher to merge.
        public let a: A

        /// A second publisher to merge.
        public let b: B

        /// Creates a publisher that merges two upstream publishers.
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        public func receive<S: Subscriber>(subscriber: S) where B.Failure == S.Failure, B.Output == S.Input {
            let inner = MergeInner(downstream: subscriber, upstreamCount: 2)
            subscriber.receive(subscription: inner)
            a.subscribe(inner.side(0))
            b.subscribe(inner.side(1))
        }

        /// Merges one more publisher into this one, giving a single flat merge.
        public func merge<P>(with other: P) -> Publishers.Merge3<A, B, P>
        where P: Publisher, B.Failure == P.Failure, B.Output == P.Output {
            Publishers.Merge3(a, b, other)
        }

        /// Merges two more publishers into this one, giving a single flat merge.
        public func merge<Z, Y>(
            with z: Z, _ y: Y
        )
            -> Publishers.Merge4<A, B, Z, Y>
        where
            Z: Publisher, Y: Publisher, B.Failure == Z.Failure, B.Output == Z.Output, Z.Failure == Y.Failure,
            Z.Output == Y.Output
        {
            Publishers.Merge4(a, b, z, y)
        }

        /// Merges three more publishers into this one, giving a single flat merge.
        public func merge<Z, Y, X>(
            with z: Z, _ y: Y, _ x: X
        )
            -> Publishers.Merge5<A, B, Z, Y, X>
        where
            Z: Publisher, Y: Publisher, X: Publisher, B.Failure == Z.Failure, B.Output == Z.Output,
            Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output
        {
            Publishers.Merge5(a, b, z, y, x)
        }

        /// Merges four more publishers into this one, giving a single flat merge.
        public func merge<Z, Y, X, W>(
            with z: Z, _ y: Y, _ x: X, _ w: W
        )
            -> Publishers.Merge6<A, B, Z, Y, X, W>
        where
            Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, B.Failure == Z.Failure, B.Output == Z.Output,
            Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output,
            X.Failure == W.Failure, X.Output == W.Output
        {
            Publishers.Merge6(a, b, z, y, x, w)
        }

        /// Merges five more publishers into this one, giving a single flat merge.
        public func merge<Z, Y, X, W, V>(
            with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V
        )
            -> Publishers.Merge7<A, B, Z, Y, X, W, V>
        where
            Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher, B.Failure == Z.Failure,
            B.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure,
            Y.Output == X.Output, X.Failure == W.Failure, X.Output == W.Output, W.Failure == V.Failure,
            W.Output == V.Output
        {
            Publishers.Merge7(a, b, z, y, x, w, v)
        }

        /// Merges six more publishers into this one, giving a single flat merge.
        public func merge<Z, Y, X, W, V, U>(
            with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V, _ u: U
        )
            -> Publishers.Merge8<A, B, Z, Y, X, W, V, U>
        where
            Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher, U: Publisher,
            B.Failure == Z.Failure, B.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output,
            Y.Failure == X.Failure, Y.Output == X.Output, X.Failure == W.Failure, X.Output == W.Output,
            W.Failure == V.Failure, W.Output == V.Output, V.Failure == U.Failure, V.Output == U.Output
        {
            Publishers.Merge8(a, b, z, y, x, w, v, u)
        }
    }
}

extension Publishers.Merge: Equatable where A: Equatable, B: Equatable {}
