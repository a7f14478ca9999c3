import CadenceSupport

extension Publisher where Output: Publisher, Output.Failure == Failure {
    /// Republishes elements sent by the most recently received publisher.
    ///
    /// ```swift
    /// searchTerms
    ///     .map { term in search(term) }
    ///     .switchToLatest()
    ///     .sink(receiveCompletion: { _ in }, receiveValue: { results = $0 })
    /// ```
    ///
    /// When a new publisher arrives, the previous one is cancelled.
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Failure == Never, Output: Publisher {
    /// Republishes elements sent by the most recently received publisher, the upstream taking on their failure type.
    public func switchToLatest()
        -> Publishers.SwitchToLatest<
            Output, Publishers.SetFailureType<Self, Output.Failure>
        >
    {
        setFailureType(to: Output.Failure.self).switchToLatest()
    }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
    /// Republishes elements sent by the most recently received publisher, each taking on the upstream's failure
    /// type.
    public func switchToLatest()
        -> Publishers.SwitchToLatest<
            Publishers.SetFailureType<Output, Failure>,
            Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
        >
    {
        map { $0.setFailureType(to: Failure.self) }.switchToLatest()
    }
}

extension Publisher where Failure == Never, Output: Publisher, Output.Failure == Never {
    /// Republishes elements sent by the most recently received publisher, neither of which fails.
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publishers {
    /// A publisher that flattens nested publishers: it republishes the elements of the latest one only.
    ///
    /// Demand: it requests `.unlimited` from the upstream (publishers are cheap to receive and each replaces the last),
    /// and passes the downstream's demand to the current inner publisher; a new inner publisher is asked for the
    /// demand still outstanding. It finishes when the upstream and the current inner publisher have finished, and
    /// fails when either fails.
    public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
    where P == Upstream.Output, P.Failure == Upstream.Failure {
        public typealias Output = P.Output
        public typealias Failure = P.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that republishes the elements of the latest publisher `upstream` sent.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Hands the subscriber its subscription, then subscribes to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let outer = Outer(downstream: subscriber)
            subscriber.receive(subscription: outer)
            upstream.subscribe(outer)
        }
    }
}

extension Publishers.SwitchToLatest {
    /// The subscription handed to the downstream, and the subscriber to the upstream: a thin shell that runs
    /// ``SwitchToLatestStateMachine`` under its lock and performs what each transition returns after leaving it.
    ///
    /// One thread at a time calls the downstream; a value from the current inner publisher that arrives meanwhile
    /// (from another thread, or from inside the downstream) is queued and delivered next. A value an inner publisher
    /// sends beyond the demand it was given traps, as in Combine.
    private final class Outer<Downstream: Subscriber>: Subscriber, Subscription, IndexedSideHost,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == P.Output, Downstream.Failure == P.Failure {
        typealias Input = P
        typealias Failure = P.Failure
        typealias SideIndex = UInt64
        typealias SideInput = P.Output
        typealias SideFailure = P.Failure
        private typealias StateMachine = SwitchToLatestStateMachine<Downstream>

        private let state: Locked<StateMachine>

        init(downstream: Downstream) {
            state = Locked(StateMachine(downstream: downstream))
        }

        // MARK: Upstream

        func receive(subscription: any Subscription) {
            guard state.withLock({ $0.receiveUpstream(subscription: subscription) }) else {
                subscription.cancel()
                return
            }
            subscription.request(.unlimited)
        }

        func receive(_ input: P) -> Subscribers.Demand {
            guard let (index, previous) = state.withLock({ $0.receiveUpstreamPublisher() }) else { return .none }
            previous?.cancel()
            input.subscribe(IndexedSide(index: index, host: self))
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            guard let termination = state.withLock({ $0.receiveUpstream(completion: completion) }) else { return }
            perform(termination)
        }

        // MARK: Inner publishers

        func receive(subscription: any Subscription, at index: UInt64) {
            guard let outstanding = state.withLock({ $0.receiveInner(subscription: subscription, at: index) }) else {
                subscription.cancel()
                return
            }
            if outstanding > 0 {
                subscription.request(outstanding)
            }
        }

        func receive(_ value: P.Output, at index: UInt64) -> Subscribers.Demand {
            let downstream: Downstream
            switch state.withLock({ $0.receiveInner(value, at: index) }) {
            case .none:
                return .none
            case .deliver(let receiver):
                downstream = receiver
            case .unrequested:
                _ = combineRule(
                    false,
                    "SwitchToLatest: an inner publisher sent a value that was not requested; a "
                        + "publisher sends no more values than its subscriber requested")
                return .none
            }
            let more = downstream.receive(value)
            let (answer, next) = state.withLock { $0.innerDelivered(more, at: index) }
            drain(from: next)
            return answer
        }

        func receive(completion: Subscribers.Completion<Failure>, at index: UInt64) {
            switch state.withLock({ $0.receiveInner(completion: completion, at: index) }) {
            case .none:
                return
            case .terminate(let termination):
                perform(termination)
            case .beforeSubscription:
                _ = combineRule(
                    false,
                    "SwitchToLatest: an inner publisher completed before sending its "
                        + "subscription; a publisher sends its subscription first")
            }
        }

        // MARK: Subscription

        func request(_ additional: Subscribers.Demand) {
            guard additional.isPositive(in: "SwitchToLatest") else { return }
            guard let (inner, drains) = state.withLock({ $0.request(additional) }) else { return }
            // Queued values go first: when this thread emits, what the inner sends in answer queues behind them.
            inner?.request(additional)
            if drains {
                drain(from: state.withLock { $0.nextDrainStep() })
            }
        }

        func cancel() {
            guard let cancellation = state.withLock({ $0.cancel() }) else { return }
            // The queued values are released here, outside the lock: a deinitialiser among them may call back into
            // this subscription.
            withExtendedLifetime(cancellation.released) {}
            cancellation.inner?.cancel()
            cancellation.upstream?.cancel()
        }

        // MARK: Emitting

        /// Lets go of what a completion dropped, cancels what it ended, and completes the downstream when due.
        private func perform(_ termination: StateMachine.Termination) {
            withExtendedLifetime(termination.dropped) {}
            termination.cancelling?.cancel()
            termination.downstream?.receive(completion: termination.completion)
        }

        /// Performs the emitter's steps from `first` until its turn ends, calling out with the lock released.
        private func drain(from first: StateMachine.DrainStep) {
            var step = first
            while true {
                switch step {
                case .deliver(let downstream, let value):
                    let more = downstream.receive(value)
                    step = state.withLock { $0.delivered(more) }
                case .requestMore(let subscription, let demand):
                    subscription.request(demand)
                    step = state.withLock { $0.nextDrainStep() }
                case .complete(let downstream, let completion):
                    downstream.receive(completion: completion)
                    return
                case .stop:
                    return
                }
            }
        }

        // MARK: Reflection

        var description: String { "SwitchToLatest" }

        var customMirror: Mirror {
            let (downstream, demand) = state.withLock { ($0.downstream, $0.demand) }
            return Mirror(self, children: ["downstream": downstream, "demand": demand])
        }

        var playgroundDescription: Any { description }
    }
}
