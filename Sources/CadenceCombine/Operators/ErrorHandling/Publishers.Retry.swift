import CadenceSupport

extension Publisher {
    /// Attempts to recreate a failed subscription with the upstream publisher up to the number of times you specify.
    ///
    /// ```swift
    /// fetchQuote()
    ///     .retry(3)
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    ///
    /// - Parameter retries: The number of times to attempt to recreate the subscription; a negative number, as in
    ///   Combine, retries indefinitely.
    public func retry(_ retries: Int) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: retries)
    }
}

extension Publishers {
    /// A publisher that attempts to recreate its subscription to a failed upstream publisher.
    ///
    /// Demand: the downstream's demand passes through to the upstream, the demand it returns for a value as a
    /// request (the value's own return is none); each new subscription is asked for the demand still outstanding.
    /// The downstream gets one subscription, whatever the number of attempts.
    public struct Retry<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The maximum number of retry attempts to perform; `nil` retries indefinitely.
        public let retries: Int?

        /// Creates a publisher that attempts to recreate its subscription to a failed upstream publisher.
        public init(upstream: Upstream, retries: Int?) {
            self.upstream = upstream
            self.retries = retries
        }

        /// Attaches the subscriber to the upstream, through the subscription that resubscribes on failure.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(upstream: upstream, retries: retries, downstream: subscriber))
        }
    }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}

extension Publishers.Retry {
    /// Subscribes to the upstream (again after each failure that leaves retries) and is the downstream's one
    /// subscription: holds a ``RetryStateMachine`` under its lock and does what each transition returns after leaving
    /// it.
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let upstream: Upstream
        private let state: Locked<RetryStateMachine<Downstream>>

        init(upstream: Upstream, retries: Int?, downstream: Downstream) {
            self.upstream = upstream
            state = Locked(RetryStateMachine(downstream: downstream, retries: retries))
        }

        func receive(subscription: any Subscription) {
            switch state.withLock({ $0.receive(subscription: subscription) }) {
            case .cancel:
                subscription.cancel()
            case let .attach(downstream, outstanding):
                downstream?.receive(subscription: self)
                if outstanding > 0 {
                    subscription.request(outstanding)
                }
            }
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            let downstream: Downstream
            switch state.withLock({ $0.receiveValue() }) {
            case .none:
                return .none
            case .deliver(let receiver):
                downstream = receiver
            case .unrequested:
                _ = combineRule(
                    false,
                    "Retry: the upstream sent a value that was not requested; a publisher sends "
                        + "no more values than its subscriber requested")
                return .none
            }
            let more = downstream.receive(input)
            if more > 0 {
                state.withLock { $0.downstreamAsked(more) }?.request(more)
            }
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            let isFailure = if case .failure = completion { true } else { false }
            switch state.withLock({ $0.receive(completion: isFailure) }) {
            case .none:
                return
            case .resubscribe:
                repeat {
                    upstream.subscribe(self)
                } while state.withLock({ $0.resubscribeAgain() })
            case let .deliver(downstream):
                downstream.receive(completion: completion)
            }
        }

        func request(_ additional: Subscribers.Demand) {
            state.withLock { $0.request(additional) }?.request(additional)
        }

        func cancel() {
            let (released, subscription) = state.withLock { $0.cancel() }
            // The downstream is released here, outside the lock: its deinitialiser may cancel again.
            withExtendedLifetime(released) {}
            subscription?.cancel()
        }

        var description: String { "Retry" }

        /// No children, as in Combine.
        var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

        var playgroundDescription: Any { description }
    }
}
