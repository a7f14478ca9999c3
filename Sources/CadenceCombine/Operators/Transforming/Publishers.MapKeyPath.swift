extension Publisher {
    /// Publishes the value of a key path of each element from the upstream publisher.
    ///
    /// ```swift
    /// struct User { let name: String }
    /// users.map(\.name)   // a publisher of the users' names
    /// ```
    ///
    /// - Parameter keyPath: The key path of a property on `Output`.
    /// - Returns: A publisher that publishes the value of the key path.
    public func map<T>(_ keyPath: KeyPath<Output, T>) -> Publishers.MapKeyPath<Self, T> {
        Publishers.MapKeyPath(upstream: self, keyPath: keyPath)
    }
}

extension Publishers {
    /// A publisher that publishes the value of a key path.
    ///
    /// It keeps no state: its subscriber hands the upstream subscription straight to the downstream, so demand and
    /// cancellation pass through untouched.
    public struct MapKeyPath<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The key path of a property to publish.
        public let keyPath: KeyPath<Upstream.Output, Output>

        /// Attaches the subscriber to the upstream through this operator.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, keyPath: keyPath))
        }
    }
}

extension Publishers.MapKeyPath {
    private struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        let downstream: Downstream
        let keyPath: KeyPath<Upstream.Output, Output>
        let combineIdentifier = CombineIdentifier()

        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            downstream.receive(input[keyPath: keyPath])
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            downstream.receive(completion: completion)
        }

        var description: String { "ValueForKey" }

        var customMirror: Mirror { Mirror(self, children: ["keyPath": keyPath]) }

        var playgroundDescription: Any { description }
    }
}
