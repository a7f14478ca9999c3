extension Publisher {
    /// Calls a closure with each received element and publishes any returned optional that has a value.
    ///
    /// A value the closure maps to `nil` is answered with `.max(1)`, so the upstream sends one more in its place and
    /// the downstream's demand is not lost.
    ///
    /// ```swift
    /// ["1", "x", "3"].publisher.compactMap { Int($0) }   // 1, 3
    /// ```
    ///
    /// - Parameter transform: A closure that receives a value and returns an optional value.
    /// - Returns: A publisher of the non-`nil` results of calling the closure.
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
        Publishers.CompactMap(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// A publisher that republishes all non-`nil` results of calling a closure with each received element.
    ///
    /// It keeps no state: its subscriber hands the upstream subscription straight to the downstream, so requests and
    /// cancellation pass through untouched; a `nil` result asks the upstream for one more (`.max(1)`).
    public struct CompactMap<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that receives values from the upstream publisher and returns optional values.
        public let transform: (Upstream.Output) -> Output?

        /// Creates a publisher that republishes the non-`nil` results of calling `transform` with each upstream
        /// element.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches the subscriber to the upstream through this operator.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, transform: transform))
        }
    }
}

extension Publishers.CompactMap {
    /// Fuses two compact-maps into one.
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap(upstream: upstream) { first($0).flatMap(transform) }
    }

    /// Fuses a compact-map and a following map into one compact-map.
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap(upstream: upstream) { first($0).map(transform) }
    }
}

extension Publishers.CompactMap {
    private struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        let downstream: Downstream
        let transform: (Upstream.Output) -> Output?
        let combineIdentifier = CombineIdentifier()

        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            guard let output = transform(input) else { return .max(1) }
            return downstream.receive(output)
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            downstream.receive(completion: completion)
        }

        var description: String { "CompactMap" }

        var customMirror: Mirror { Mirror(self, children: [Mirror.Child]()) }

        var playgroundDescription: Any { description }
    }
}
