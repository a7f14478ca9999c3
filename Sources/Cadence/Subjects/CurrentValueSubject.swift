#if !canImport(Combine)

/// A subject that wraps a single value and publishes a new element whenever the value changes.
///
/// Unlike ``PassthroughSubject``, a `CurrentValueSubject` keeps the most recently published element: a new
/// subscriber receives the current value as soon as it requests one, and a subscriber that had no demand when a
/// value was sent receives the then-current value at its next request. Setting ``value`` sends it; `send(_:)` sets
/// it. Each subscriber's subscription keeps its own demand.
///
/// Its `send` methods and ``value`` may be used from any thread; delivery is synchronous, never concurrent into one
/// subscriber, and recursive for a value sent from inside a subscriber's `receive(_:)`, as in Combine. After
/// completion, `send(_:)` is ignored (and leaves ``value`` unchanged), setting ``value`` still stores it without
/// sending, and a late subscriber receives an empty subscription followed at once by the completion. An upstream
/// subscription handed over with `send(subscription:)` is asked for `.unlimited` at once.
public final class CurrentValueSubject<Output, Failure: Error>: Subject {
    // `lock` guards the stored vars below.
    private let lock = UnfairLock()
    private var conduits = ContiguousArray<SubjectConduit<Output, Failure>>()
    private var completion: Subscribers.Completion<Failure>?
    private var currentValue: Output
    private var upstreamSubscriptions: [any Subscription] = []

    /// The value wrapped by this subject, published as a new element whenever it changes.
    public var value: Output {
        get {
            lock.lock()
            defer { lock.unlock() }
            return currentValue
        }
        set {
            lock.lock()
            currentValue = newValue
            sendLocked(newValue)
        }
    }

    /// Creates a current value subject with the given initial value.
    public init(_ value: Output) {
        currentValue = value
    }

    deinit {
        for subscription in upstreamSubscriptions {
            subscription.cancel()
        }
    }

    /// Sends a subscription to the subscriber: the subject requests `.unlimited` from it at once.
    public func send(subscription: any Subscription) {
        lock.lock()
        upstreamSubscriptions.append(subscription)
        lock.unlock()
        subscription.request(.unlimited)
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        lock.lock()
        if let completion {
            lock.unlock()
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: completion)
            return
        }
        let conduit = Conduit(parent: self, downstream: subscriber)
        conduits.append(conduit)
        lock.unlock()
        subscriber.receive(subscription: conduit)
    }

    /// Sends a value to every subscriber that has demand for it, and makes it the current value.
    public func send(_ input: Output) {
        lock.lock()
        sendLocked(input)
    }

    /// Stores `input` as the current value and offers it to a snapshot of the subscribers; called with `lock` held,
    /// returns with it released.
    private func sendLocked(_ input: Output) {
        guard completion == nil else {
            lock.unlock()
            return
        }
        currentValue = input
        let snapshot = conduits
        lock.unlock()
        for conduit in snapshot {
            conduit.offer(input)
        }
    }

    /// Sends a completion to every subscriber; the first completion ends the subject, later ones are ignored.
    public func send(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard self.completion == nil else {
            lock.unlock()
            return
        }
        self.completion = completion
        let snapshot = conduits
        conduits = []
        lock.unlock()
        for conduit in snapshot {
            conduit.finish(completion)
        }
    }

    fileprivate func remove(_ conduit: SubjectConduit<Output, Failure>) {
        lock.lock()
        if let index = conduits.firstIndex(where: { $0 === conduit }) {
            conduits.remove(at: index)
        }
        lock.unlock()
    }
}

extension CurrentValueSubject {
    /// One subscriber's subscription: its own demand, whether it has been given the current value, a strong
    /// reference to the subject while it is attached, and a delivery lock that serialises the calls into the
    /// subscriber.
    private final class Conduit<Downstream: Subscriber>: SubjectConduit<Output, Failure>, Subscription,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Failure {
        // `lock` guards `parent`, `downstream`, `demand` and `deliveredCurrentValue`; `deliveryLock` guards
        // `completed` and is held around every call into the downstream.
        private let lock = UnfairLock()
        private let deliveryLock = SubjectDeliveryLock()
        private var parent: CurrentValueSubject?
        private var downstream: Downstream?
        private var demand = Subscribers.Demand.none
        private var deliveredCurrentValue = false
        private var completed = false

        init(parent: CurrentValueSubject, downstream: Downstream) {
            self.parent = parent
            self.downstream = downstream
        }

        override func offer(_ value: Output) {
            lock.lock()
            guard demand > 0, let downstream else {
                // Missed: the next request delivers whatever is current then.
                deliveredCurrentValue = false
                lock.unlock()
                return
            }
            demand -= 1
            deliveredCurrentValue = true
            lock.unlock()
            deliver(value, to: downstream)
        }

        private func deliver(_ value: Output, to downstream: Downstream) {
            deliveryLock.lock()
            guard !completed else {
                deliveryLock.unlock()
                return
            }
            let more = downstream.receive(value)
            deliveryLock.unlock()
            if more > 0 {
                lock.lock()
                demand += more
                lock.unlock()
            }
        }

        override func finish(_ completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard let downstream else {
                lock.unlock()
                return
            }
            self.downstream = nil
            let parent = self.parent
            self.parent = nil
            lock.unlock()
            deliveryLock.lock()
            completed = true
            downstream.receive(completion: completion)
            deliveryLock.unlock()
            withExtendedLifetime(parent) {}
        }

        func request(_ demand: Subscribers.Demand) {
            demand.assertPositive(in: "CurrentValueSubject")
            lock.lock()
            guard let downstream else {
                lock.unlock()
                return
            }
            self.demand += demand
            guard !deliveredCurrentValue, let parent else {
                lock.unlock()
                return
            }
            // Lock order: a conduit's lock may be held while taking its subject's, never the other way round.
            let current = parent.value
            deliveredCurrentValue = true
            self.demand -= 1
            lock.unlock()
            deliver(current, to: downstream)
        }

        func cancel() {
            lock.lock()
            guard let downstream else {
                lock.unlock()
                return
            }
            self.downstream = nil
            let parent = self.parent
            self.parent = nil
            lock.unlock()
            parent?.remove(self)
            withExtendedLifetime(downstream) {}
        }

        var description: String { "CurrentValueSubject" }

        var customMirror: Mirror {
            lock.lock()
            defer { lock.unlock() }
            return Mirror(
                self,
                children: [
                    "parent": parent as Any,
                    "downstream": downstream as Any,
                    "demand": demand,
                    "subject": parent as Any,
                ])
        }

        var playgroundDescription: Any { description }
    }
}

#endif
