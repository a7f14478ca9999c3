extension Publisher {
    /// Combines elements from this publisher with those from another publisher of the same type, delivering an
    /// interleaved sequence of elements.
    public func merge(with other: Self) -> Publishers.MergeMany<Self> {
        Publishers.MergeMany(self, other)
    }
}

extension Publishers {
    /// A publisher created by applying the merge function to an arbitrary number of upstream publishers.
    ///
    /// Demand works as for `Publishers.Merge`: each upstream is asked for `.max(1)` at a time (`.unlimited` once the
    /// downstream asks for `.unlimited`). With no upstream at all it finishes at once.
    public struct MergeMany<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The array of upstream publishers that this publisher merges together.
        public let publishers: [Upstream]

        /// Creates a publisher that merges any number of upstream publishers.
        public init(_ upstream: Upstream...) {
            publishers = upstream
        }

        /// Creates a publisher that merges a sequence of upstream publishers.
        public init<S: Swift.Sequence>(_ upstream: S) where Upstream == S.Element {
            publishers = Array(upstream)
        }

        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            let inner = MergeInner(downstream: subscriber, upstreamCount: publishers.count)
            subscriber.receive(subscription: inner)
            for (index, publisher) in publishers.enumerated() {
                publisher.subscribe(inner.side(index))
            }
            inner.finishIfNoUpstream()
        }

        /// Merges one more publisher of the same type, giving a single flat merge.
        public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
            Publishers.MergeMany(publishers + [other])
        }
    }
}

extension Publishers.MergeMany: Equatable where Upstream: Equatable {}
