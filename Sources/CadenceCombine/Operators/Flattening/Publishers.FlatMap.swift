import CadenceSupport
extension Publisher {
    /// Transforms all elements from an upstream publisher into a new publisher up to a maximum number of publishers
    /// you specify.
    ///
    /// ```swift
    /// stations
    ///     .flatMap(maxPublishers: .max(2)) { station in loadObservations(for: station) }
    ///     .sink(receiveCompletion: { _ in }, receiveValue: { print($0) })
    /// ```
    ///
    /// - Parameters:
    ///   - maxPublishers: The maximum number of concurrent publisher subscriptions, `.unlimited` by default.
    ///   - transform: A closure that takes an element and returns a publisher of the flattened elements.
    public func flatMap<T, P>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where T == P.Output, P: Publisher, Failure == P.Failure {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publisher where Failure == Never {
    /// Transforms all elements from a publisher that never fails into new publishers that may fail: the upstream
    /// takes on their failure type.
    public func flatMap<P>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> where P: Publisher {
        setFailureType(to: P.Failure.self).flatMap(maxPublishers: maxPublishers, transform)
    }

    /// Transforms all elements from a publisher that never fails into new publishers that never fail either.
    public func flatMap<P>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where P: Publisher, P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publisher {
    /// Transforms all elements into new publishers that never fail: they take on the upstream's failure type.
    public func flatMap<P>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P: Publisher, P.Failure == Never {
        flatMap(maxPublishers: maxPublishers) { transform($0).setFailureType(to: Failure.self) }
    }
}

extension Publishers {
    /// A publisher that transforms elements from an upstream publisher into a new publisher and flattens the values
    /// of every such publisher into one stream.
    ///
    /// Demand: it requests `maxPublishers` from the upstream, and one more each time an inner publisher finishes.
    /// Each inner publisher is asked for one value at a time (`.unlimited` once the downstream asked for
    /// `.unlimited`); a value that arrives while the downstream has no demand waits in a buffer, and its publisher is
    /// asked for the next one only when it went out. It finishes when the upstream and every inner publisher have
    /// finished, and fails at the first failure, cancelling everything else.
    public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        public typealias Output = NewPublisher.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The maximum number of concurrent publisher subscriptions.
        public let maxPublishers: Subscribers.Demand

        /// A closure that takes an element and returns a publisher of the flattened elements.
        public let transform: (Upstream.Output) -> NewPublisher

        /// Creates a publisher that flattens the publishers `transform` makes of the upstream's elements.
        public init(
            upstream: Upstream,
            maxPublishers: Subscribers.Demand,
            transform: @escaping (Upstream.Output) -> NewPublisher
        ) {
            self.upstream = upstream
            self.maxPublishers = maxPublishers
            self.transform = transform
        }

        /// Hands the subscriber its subscription, then subscribes to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let outer = Outer(downstream: subscriber, maxPublishers: maxPublishers, transform: transform)
            subscriber.receive(subscription: outer)
            upstream.subscribe(outer)
        }
    }
}

extension Publishers.FlatMap {
    /// The subscription handed to the downstream, and the subscriber to the upstream: a thin shell that runs
    /// ``FlatMapStateMachine`` under its lock and performs what each transition returns after leaving it.
    ///
    /// Delivery goes through a `BufferedDelivery`: one thread at a time holds its token and alone calls the
    /// downstream, draining the buffer while there is demand. A value arriving from an inner publisher while another
    /// thread delivers, or without demand, is buffered, so the downstream never gets two calls at once and values keep
    /// the order in which they arrived.
    private final class Outer<Downstream: Subscriber>: Subscriber, Subscription, IndexedSideHost,
        BufferedDeliveryHost, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == NewPublisher.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure
        typealias SideIndex = Int
        typealias SideInput = NewPublisher.Output
        typealias SideFailure = NewPublisher.Failure
        private typealias StateMachine = FlatMapStateMachine<Downstream>

        private let maxPublishers: Subscribers.Demand
        private let transform: (Upstream.Output) -> NewPublisher

        // `lock` guards `state`; `deliveryToken` is atomic. The delivery loop (`BufferedDeliveryHost`) hands the lock
        // over between its steps, so the state sits beside a plain lock rather than inside a `Locked`.
        let lock = UnfairLock()
        let deliveryToken: DeliveryToken
        private var state: StateMachine

        /// The state's delivery, for the delivery loop; touch only with `lock` held.
        var delivery: BufferedDelivery<NewPublisher.Output> {
            get { state.delivery }
            _modify { yield &state.delivery }
        }

        init(downstream: Downstream, maxPublishers: Subscribers.Demand,
             transform: @escaping (Upstream.Output) -> NewPublisher) {
            self.maxPublishers = maxPublishers
            self.transform = transform
            let token = DeliveryToken()
            deliveryToken = token
            state = StateMachine(downstream: downstream, maxPublishers: maxPublishers, token: token)
        }

        // MARK: Upstream

        func receive(subscription: any Subscription) {
            lock.lock()
            let kept = state.receiveUpstream(subscription: subscription)
            lock.unlock()
            guard kept else {
                subscription.cancel()
                return
            }
            subscription.request(maxPublishers)
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            lock.lock()
            let index = state.receiveUpstreamValue()
            lock.unlock()
            guard let index else { return .none }
            transform(input).subscribe(IndexedSide(index: index, host: self))
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            let termination = state.receiveUpstream(completion: completion)
            lock.unlock()
            if let termination {
                perform(termination)
            }
        }

        // MARK: Inner publishers

        func receive(subscription: any Subscription, at index: Int) {
            lock.lock()
            let initial = state.receiveInner(subscription: subscription, at: index)
            lock.unlock()
            guard let initial else {
                subscription.cancel()
                return
            }
            subscription.request(initial)
        }

        func receive(_ value: NewPublisher.Output, at index: Int) -> Subscribers.Demand {
            lock.lock()
            guard let downstream = state.downstreamForValues else {
                lock.unlock()
                return .none
            }
            return deliverLocked(value, from: index, to: downstream)
        }

        func receive(completion: Subscribers.Completion<Failure>, at index: Int) {
            lock.lock()
            let action = state.receiveInner(completion: completion, at: index)
            lock.unlock()
            switch action {
            case .none:
                break
            case .requestFromUpstream(let upstream):
                upstream.request(.max(1))
            case .terminate(let termination):
                perform(termination)
            }
        }

        // MARK: Subscription

        func request(_ additional: Subscribers.Demand) {
            additional.assertPositive(in: "FlatMap")
            lock.lock()
            guard let (unlimitedInners, drains) = state.request(additional) else {
                lock.unlock()
                return
            }
            lock.unlock()
            // When this thread took the token, values the inner publishers send in answer are buffered behind the
            // others, and it delivers them.
            for subscription in unlimitedInners {
                subscription.request(.unlimited)
            }
            guard drains else { return }
            lock.lock()
            drainLocked()
        }

        func cancel() {
            lock.lock()
            let cancellation = state.cancel()
            lock.unlock()
            guard let cancellation else { return }
            // The downstream, the buffered values and the inners are released here, outside the lock: a
            // deinitialiser among them may call back into this subscription.
            withExtendedLifetime(cancellation.released) {}
            for subscription in cancellation.inners {
                subscription.cancel()
            }
            cancellation.upstream?.cancel()
        }

        /// Lets go of what a termination dropped, cancels what it ended, and completes the downstream when due.
        private func perform(_ termination: StateMachine.Termination) {
            withExtendedLifetime(termination.dropped) {}
            for subscription in termination.cancelling {
                subscription.cancel()
            }
            termination.upstream?.cancel()
            termination.downstream?.receive(completion: termination.completion)
        }

        // MARK: Delivery

        func downstreamForDeliveryLocked() -> Downstream? {
            switch state.deliveryTurn() {
            case .deliver(let downstream):
                return downstream
            case .end(let downstream, let completion):
                lock.unlock()
                if let completion {
                    downstream?.receive(completion: completion)
                }
                return nil
            }
        }

        func subscriptionLocked(forSource source: Int) -> (any Subscription)? {
            state.subscription(forSource: source)
        }

        func endDeliveryLocked() {
            let finished = state.endDelivery()
            lock.unlock()
            finished?.receive(completion: .finished)
        }

        // MARK: Reflection

        var description: String { "FlatMap" }

        var customMirror: Mirror {
            lock.lock()
            defer { lock.unlock() }
            return Mirror(self, children: [
                "downstream": state.downstream as Any,
                "maxPublishers": maxPublishers,
                "demand": state.delivery.demand,
                "innerPublishers": state.inners.count,
                "buffered": state.delivery.buffer.count,
            ])
        }

        var playgroundDescription: Any { description }
    }
}
