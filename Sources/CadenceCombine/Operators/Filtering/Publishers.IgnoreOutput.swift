extension Publisher {
    /// Ignores all upstream elements, but passes along the upstream publisher's completion state (finished or failed).
    ///
    /// - Returns: A publisher that ignores all upstream elements.
    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }
}

extension Publishers {
    /// A publisher that ignores all upstream elements, but passes along the upstream publisher's completion state.
    ///
    /// Like Combine's, it hands the upstream subscription straight to the downstream, then requests `.unlimited`
    /// from the upstream itself and answers every value with `.none`.
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        public typealias Output = Never
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that ignores all upstream elements but passes along its completion.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the subscriber to the upstream through this operator.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Never, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber))
        }
    }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}

extension Publishers.IgnoreOutput {
    private struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Never, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        let downstream: Downstream
        let combineIdentifier = CombineIdentifier()

        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
            subscription.request(.unlimited)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            downstream.receive(completion: completion)
        }

        var description: String { "IgnoreOutput" }

        /// No children, as Combine's.
        var customMirror: Mirror { Mirror(self, children: [:]) }

        var playgroundDescription: Any { description }
    }
}
