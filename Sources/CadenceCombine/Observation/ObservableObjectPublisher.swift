import CadenceSupport

/// A publisher that publishes changes from observable objects.
///
/// It never completes. A subscriber starts receiving signals once it has requested anything at all, and from then on
/// receives every `send()`, whatever the amount it requested, as in Combine.
public final class ObservableObjectPublisher: Publisher {
    public typealias Output = Void
    public typealias Failure = Never

    // `lock` guards `connections`.
    private let lock = UnfairLock()
    private var connections = ContiguousArray<SubjectConduit>()

    /// Creates an observable object publisher instance.
    public init() {}

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
        let connection = Connection(parent: self, downstream: subscriber)
        lock.lock()
        connections.append(connection)
        lock.unlock()
        subscriber.receive(subscription: connection)
    }

    /// Sends the changed value to the downstream subscribers.
    public func send() {
        lock.lock()
        let snapshot = connections
        lock.unlock()
        snapshot.offerToEach(())
    }

    fileprivate func remove(_ connection: SubjectConduit) {
        lock.lock()
        connections.removeConduit(connection)
        lock.unlock()
    }
}

extension ObservableObjectPublisher {
    /// One subscriber's subscription: inactive until the first request, then passes on every signal. It holds the
    /// publisher weakly, so an object's publisher goes away with the object.
    private final class Connection<Downstream: Subscriber>: SubjectConduit, Subscription,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Void, Downstream.Failure == Never {
        private enum State {
            case awaitingDemand
            case active
            case terminal
        }

        // `lock` guards `state` and `downstream`; `deliveryLock` is held around every call into the downstream.
        private let lock = UnfairLock()
        private let deliveryLock = SubjectDeliveryLock()
        private weak var parent: ObservableObjectPublisher?
        private var downstream: Downstream?
        private var state = State.awaitingDemand

        init(parent: ObservableObjectPublisher, downstream: Downstream) {
            self.parent = parent
            self.downstream = downstream
            super.init(offerer: { connection, _ in unsafeDowncast(connection, to: Connection.self).offer() })
        }

        /// Passes the signal on if the subscriber has requested anything.
        private func offer() {
            lock.lock()
            guard case .active = state, let downstream else {
                lock.unlock()
                return
            }
            lock.unlock()
            deliveryLock.lock()
            _ = downstream.receive(())
            deliveryLock.unlock()
        }

        override func finish(_ completion: UnsafeRawPointer) {}

        func request(_ demand: Subscribers.Demand) {
            lock.lock()
            if case .awaitingDemand = state {
                state = .active
            }
            lock.unlock()
        }

        func cancel() {
            lock.lock()
            let released = downstream
            downstream = nil
            state = .terminal
            let parent = self.parent
            lock.unlock()
            parent?.remove(self)
            withExtendedLifetime(released) {}
        }

        var description: String { "ObservableObjectPublisher" }

        var customMirror: Mirror {
            lock.lock()
            defer { lock.unlock() }
            return Mirror(self, children: ["downstream": downstream as Any])
        }

        var playgroundDescription: Any { description }
    }
}
