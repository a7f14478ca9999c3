import CadenceSupport

extension ConnectablePublisher {
    /// Automates the process of connecting or disconnecting from this connectable publisher.
    ///
    /// ```swift
    /// let ticks = timerTicks.makeConnectable().autoconnect()
    /// let cancellable = ticks.sink { print($0) } // connects here
    /// cancellable.cancel()                       // the last subscriber left: disconnects
    /// ```
    public func autoconnect() -> Publishers.Autoconnect<Self> {
        Publishers.Autoconnect(upstream: self)
    }
}

extension Publishers {
    /// A publisher that automatically connects to an upstream connectable publisher.
    ///
    /// It connects when the first subscriber subscribes, counts the subscribers, and cancels the connection when
    /// the last one cancels; a later subscriber connects again. As in Combine, a subscriber that completes still
    /// counts until it cancels. Demand passes straight through to the upstream.
    public class Autoconnect<Upstream: ConnectablePublisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        private enum State {
            case disconnected
            /// `connection` is `nil` while the connecting subscriber is still calling `connect()`.
            case connected(subscribers: Int, connection: (any Cancellable)?, generation: UInt64)
        }

        /// The publisher from which this publisher receives elements.
        public final let upstream: Upstream

        // `lock` guards `state` and `nextGeneration`.
        private let lock = UnfairLock()
        private var state = State.disconnected
        private var nextGeneration: UInt64 = 0

        /// Creates a publisher that automatically connects to an upstream connectable publisher.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the subscriber to the upstream, connecting it if this is the first subscriber.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = Inner(parent: self, downstream: subscriber)
            lock.lock()
            switch state {
            case .connected(let subscribers, let connection, let generation):
                state = .connected(subscribers: subscribers + 1, connection: connection, generation: generation)
                lock.unlock()
                upstream.subscribe(inner)
            case .disconnected:
                let generation = nextGeneration
                nextGeneration += 1
                state = .connected(subscribers: 1, connection: nil, generation: generation)
                lock.unlock()
                upstream.subscribe(inner)
                let connection = upstream.connect()
                lock.lock()
                if case .connected(let subscribers, nil, generation) = state {
                    state = .connected(subscribers: subscribers, connection: connection, generation: generation)
                    lock.unlock()
                } else {
                    lock.unlock() // every subscriber left while connecting
                    connection.cancel()
                }
            }
        }

        /// One subscriber cancelled: the last one disconnects.
        fileprivate func subscriberDidCancel() {
            lock.lock()
            guard case .connected(let subscribers, let connection, let generation) = state else {
                lock.unlock()
                return
            }
            if subscribers > 1 {
                state = .connected(subscribers: subscribers - 1, connection: connection, generation: generation)
                lock.unlock()
                return
            }
            state = .disconnected
            lock.unlock()
            connection?.cancel()
        }
    }
}

extension Publishers.Autoconnect {
    /// The subscriber to the upstream: it hands the downstream the upstream subscription wrapped so that
    /// cancelling it also counts the subscriber out.
    private struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Failure {
        typealias Input = Output

        let parent: Publishers.Autoconnect<Upstream>
        let downstream: Downstream
        let combineIdentifier = CombineIdentifier()

        func receive(subscription: any Subscription) {
            downstream.receive(subscription: CountedSubscription(upstream: subscription, parent: parent))
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            downstream.receive(input)
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            downstream.receive(completion: completion)
        }

        var description: String { "Autoconnect" }

        var customMirror: Mirror { Mirror(self, children: ["parent": parent, "downstream": downstream]) }

        var playgroundDescription: Any { description }
    }

    /// The upstream subscription as the downstream sees it (same description, no mirror of its own, as in
    /// Combine); its first `cancel()` counts the subscriber out of the parent, and every `cancel()` reaches the
    /// upstream subscription.
    private final class CountedSubscription: Subscription, CustomStringConvertible,
        CustomPlaygroundDisplayConvertible
    {
        private let upstream: any Subscription
        // `parentStorage` guards the parent, released at the first cancel.
        private let parentStorage: Locked<Publishers.Autoconnect<Upstream>?>

        init(upstream: any Subscription, parent: Publishers.Autoconnect<Upstream>) {
            self.upstream = upstream
            parentStorage = Locked(parent)
        }

        var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }

        func request(_ demand: Subscribers.Demand) {
            upstream.request(demand)
        }

        func cancel() {
            parentStorage.withLock { $0.take() }?.subscriberDidCancel()
            upstream.cancel()
        }

        var description: String { String(describing: upstream) }

        var playgroundDescription: Any { description }
    }
}
