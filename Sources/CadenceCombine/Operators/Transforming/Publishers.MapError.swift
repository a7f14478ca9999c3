extension Publisher {
    /// Converts any failure from the upstream publisher into a new error.
    ///
    /// ```swift
    /// numbers.tryMap(parse).mapError { _ in ParseError.invalid }
    /// ```
    ///
    /// - Parameter transform: A closure that takes the upstream failure and returns a new error to fail with.
    /// - Returns: A publisher that replaces any upstream failure with a new error produced by the closure.
    public func mapError<E: Error>(_ transform: @escaping (Failure) -> E) -> Publishers.MapError<Self, E> {
        Publishers.MapError(upstream: self, transform)
    }
}

extension Publishers {
    /// A publisher that converts any failure from the upstream publisher into a new error.
    ///
    /// It keeps no state: its subscriber hands the upstream subscription straight to the downstream, so demand and
    /// cancellation pass through untouched.
    public struct MapError<Upstream: Publisher, Failure: Error>: Publisher {
        public typealias Output = Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that converts the upstream failure into a new error.
        public let transform: (Upstream.Failure) -> Failure

        /// Creates a publisher that converts any failure from the upstream publisher into a new error.
        public init(upstream: Upstream, _ map: @escaping (Upstream.Failure) -> Failure) {
            self.upstream = upstream
            self.transform = map
        }

        /// Creates a publisher that converts any failure from the upstream publisher into a new error.
        public init(upstream: Upstream, transform: @escaping (Upstream.Failure) -> Failure) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches the subscriber to the upstream through this operator.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, transform: transform))
        }
    }
}

extension Publishers.MapError {
    private struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Failure {
        typealias Input = Upstream.Output

        let downstream: Downstream
        let transform: (Upstream.Failure) -> Failure
        let combineIdentifier = CombineIdentifier()

        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            downstream.receive(input)
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion.mapFailure(transform))
        }

        var description: String { "MapError" }

        var customMirror: Mirror { Mirror(self, children: [Mirror.Child]()) }

        var playgroundDescription: Any { description }
    }
}
