import CadenceSupport

extension Publisher {
    /// Applies a closure to create a subject that delivers elements to subscribers.
    ///
    /// ```swift
    /// let shared = prices.multicast { PassthroughSubject<Price, Never>() }
    /// shared.sink { print("A", $0) }.store(in: &cancellables)
    /// shared.sink { print("B", $0) }.store(in: &cancellables)
    /// shared.connect().store(in: &cancellables)
    /// ```
    ///
    /// The subject is created once, when the first subscriber subscribes or `connect()` is called.
    public func multicast<S>(_ createSubject: @escaping () -> S) -> Publishers.Multicast<Self, S>
    where S: Subject, Failure == S.Failure, Output == S.Output {
        Publishers.Multicast(upstream: self, createSubject: createSubject)
    }

    /// Provides a subject to deliver elements to multiple subscribers.
    public func multicast<S>(subject: S) -> Publishers.Multicast<Self, S>
    where S: Subject, Failure == S.Failure, Output == S.Output {
        Publishers.Multicast(upstream: self, createSubject: { subject })
    }
}

extension Publishers {
    /// A publisher that uses a subject to deliver elements to multiple subscribers.
    ///
    /// Subscribers subscribe to the subject; `connect()` subscribes the subject to the upstream (each call makes a
    /// new upstream subscription, as in Combine). Demand: each subscriber's demand goes to the subject, which decides
    /// what to request from the upstream.
    public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher
    where Upstream.Failure == SubjectType.Failure, Upstream.Output == SubjectType.Output {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public final let upstream: Upstream

        /// A closure that creates the subject.
        public final let createSubject: () -> SubjectType

        // `subjectStorage` guards the subject, made on first use.
        private let subjectStorage = Locked<SubjectType?>(nil)

        /// Creates a multicast publisher that applies a closure to create a subject that delivers elements to
        /// subscribers.
        public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
            self.upstream = upstream
            self.createSubject = createSubject
        }

        /// The subject, created on first use; `createSubject` runs outside the lock, and if two threads race, the
        /// first stored subject wins.
        private var subject: SubjectType {
            if let existing = subjectStorage.withLock({ $0 }) {
                return existing
            }
            let made = createSubject()
            return subjectStorage.withLock { stored in
                if let stored { return stored }
                stored = made
                return made
            }
        }

        /// Attaches the subscriber to the subject (created on first use).
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subject.subscribe(Inner(downstream: subscriber))
        }

        /// Connects the subject to the upstream publisher, and returns the cancellable that disconnects it.
        public func connect() -> any Cancellable {
            upstream.subscribe(subject)
        }
    }
}

extension Publishers.Multicast {
    /// A subscriber's connection through the subject: it passes demand and cancellation to the subject's
    /// subscription, and is what the subscriber sees (`"Multicast"`).
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Failure {
        typealias Input = Output

        // `lock` guards `state`.
        private let lock = UnfairLock()
        private var state: SubscriptionStatus<Downstream>

        init(downstream: Downstream) {
            state = .awaitingSubscription(downstream)
        }

        func receive(subscription: any Subscription) {
            lock.lock()
            guard let downstream = state.receive(subscription: subscription) else {
                lock.unlock()
                subscription.cancel()
                return
            }
            lock.unlock()
            downstream.receive(subscription: self)
        }

        /// Passes the value on; what the downstream asks for in return goes to the subject's subscription as a
        /// request, and the value's own return is none, as in Combine.
        func receive(_ input: Input) -> Subscribers.Demand {
            lock.lock()
            guard case .subscribed(let subscription, let downstream) = state else {
                lock.unlock()
                return .none
            }
            lock.unlock()
            let more = downstream.receive(input)
            if more > 0 {
                subscription.request(more)
            }
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            // The completion ends the subscription even before the upstream's subscription arrived.
            let previous = state.terminate()
            lock.unlock()
            guard let downstream = previous.context else { return }
            downstream.receive(completion: completion)
        }

        func request(_ demand: Subscribers.Demand) {
            lock.lock()
            guard let subscription = state.subscription else {
                lock.unlock()
                return
            }
            lock.unlock()
            subscription.request(demand)
        }

        func cancel() {
            lock.lock()
            guard let (subscription, downstream) = state.complete() else {
                lock.unlock()
                return
            }
            lock.unlock()
            // The downstream is released here, outside the lock: its deinitialiser may cancel again.
            withExtendedLifetime(downstream) {}
            subscription.cancel()
        }

        var description: String { "Multicast" }

        /// No children, as in Combine.
        var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

        var playgroundDescription: Any { description }
    }
}
