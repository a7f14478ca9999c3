extension Publishers {
    /// A publisher that transforms all elements from the upstream publisher with a provided closure.
    public struct Map<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that transforms elements from the upstream publisher.
        public let transform: (Upstream.Output) -> Output

        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // `receive(subscriber:)`, which is all `subscribe(_:)` does: the optimiser does not specialise one generic
            // function called again with a type that grows (`subscribe` with `Inner<S>` inside `subscribe` with `S`),
            // so a chain of `subscribe` calls left the subscriptions of a pipeline unspecialised.
            upstream.receive(subscriber: Inner(downstream: subscriber, transform: transform))
        }
    }
}

extension Publishers.Map {
    /// Fuses two maps into one.
    @inlinable
    public func map<Result>(_ transform: @escaping (Output) -> Result) -> Publishers.Map<Upstream, Result> {
        let first = self.transform
        return Publishers.Map(upstream: upstream) { transform(first($0)) }
    }
}

extension Publisher {
    /// Transforms all elements from the upstream publisher with a provided closure.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
        Publishers.Map(upstream: self, transform: transform)
    }
}

extension Publishers.Map {
    /// Map holds no state of its own: it hands the upstream subscription straight to the downstream, so demand and
    /// cancellation pass through untouched and a value costs one closure call.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let downstream: Downstream
        @usableFromInline let transform: (Upstream.Output) -> Output
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, transform: @escaping (Upstream.Output) -> Output) {
            self.downstream = downstream
            self.transform = transform
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            downstream.receive(transform(input))
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            downstream.receive(completion: completion)
        }

        @usableFromInline var description: String { "Map" }

        @usableFromInline var customMirror: Mirror { Mirror(self, children: [Mirror.Child]()) }

        @usableFromInline var playgroundDescription: Any { description }
    }
}
