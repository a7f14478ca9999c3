#if !canImport(Combine)

/// A subject that broadcasts elements to downstream subscribers.
///
/// Unlike ``CurrentValueSubject``, a `PassthroughSubject` has no initial value and keeps no buffer of the most
/// recently published element: it drops a value for every subscriber that has no outstanding demand, and drops it
/// altogether when there are no subscribers. Each subscriber's subscription keeps its own demand.
///
/// Its `send` methods may be called from any thread. Each `send(_:)` delivers synchronously, before it returns, to
/// every subscriber attached when it started; two threads never call into one subscriber at the same time, and a
/// value sent from inside a subscriber's `receive(_:)` is delivered at once (recursively), as in Combine.
///
/// After completion the subject ignores further values and completions, and a late subscriber receives an empty
/// subscription followed at once by the completion. An upstream subscription handed over with `send(subscription:)`
/// is asked for `.unlimited` as soon as any subscriber has requested something.
public final class PassthroughSubject<Output, Failure: Error>: Subject {
    // `lock` guards the stored vars below.
    private let lock = UnfairLock()
    private var conduits = ContiguousArray<SubjectConduit<Output, Failure>>()
    private var completion: Subscribers.Completion<Failure>?
    private var upstreamSubscriptions: [any Subscription] = []
    private var hasDownstreamDemand = false

    /// Creates a subject with no subscribers.
    public init() {}

    deinit {
        for subscription in upstreamSubscriptions {
            subscription.cancel()
        }
    }

    /// Sends a subscription to the subscriber: the subject requests `.unlimited` from it once any of its own
    /// subscribers has asked for a value.
    public func send(subscription: any Subscription) {
        lock.lock()
        upstreamSubscriptions.append(subscription)
        let requestNow = hasDownstreamDemand
        lock.unlock()
        if requestNow {
            subscription.request(.unlimited)
        }
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

    /// Sends a value to every subscriber that has demand for it.
    public func send(_ input: Output) {
        lock.lock()
        guard completion == nil else {
            lock.unlock()
            return
        }
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

    /// Called by a subscription that received a request: the first one opens the upstream subscriptions.
    fileprivate func acknowledgeDownstreamDemand() {
        lock.lock()
        guard !hasDownstreamDemand else {
            lock.unlock()
            return
        }
        hasDownstreamDemand = true
        let upstreams = upstreamSubscriptions
        lock.unlock()
        for subscription in upstreams {
            subscription.request(.unlimited)
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

extension PassthroughSubject {
    /// One subscriber's subscription: its own demand, a strong reference to the subject while it is attached, and
    /// a delivery lock that serialises the calls into the subscriber.
    private final class Conduit<Downstream: Subscriber>: SubjectConduit<Output, Failure>, Subscription,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Failure {
        // `lock` guards `parent`, `downstream` and `demand`; `deliveryLock` guards `completed` and is held around
        // every call into the downstream.
        private let lock = UnfairLock()
        private let deliveryLock = SubjectDeliveryLock()
        private var parent: PassthroughSubject?
        private var downstream: Downstream?
        private var demand = Subscribers.Demand.none
        private var completed = false

        init(parent: PassthroughSubject, downstream: Downstream) {
            self.parent = parent
            self.downstream = downstream
        }

        override func offer(_ value: Output) {
            lock.lock()
            guard demand > 0, let downstream else {
                lock.unlock()
                return
            }
            demand -= 1
            lock.unlock()
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
            demand.assertPositive(in: "PassthroughSubject")
            lock.lock()
            guard downstream != nil else {
                lock.unlock()
                return
            }
            self.demand += demand
            let parent = self.parent
            lock.unlock()
            parent?.acknowledgeDownstreamDemand()
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

        var description: String { "PassthroughSubject" }

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
