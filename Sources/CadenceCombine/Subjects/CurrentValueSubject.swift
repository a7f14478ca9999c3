import CadenceSupport

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
    // `lock` guards the stored vars below, so exclusivity is not checked at run time. `isActive` mirrors
    // `completion == nil` for the hot path, which would otherwise look up generic metadata on every send.
    // `receive(subscriber:)` and `send(_:)` are inlinable (see `SubjectSubscription`): what they touch is
    // `@usableFromInline`.
    @usableFromInline let lock = UnfairLock()
    @usableFromInline @exclusivity(unchecked) var conduits = ContiguousArray<SubjectConduit>()
    @usableFromInline @exclusivity(unchecked) var isActive = true
    @usableFromInline @exclusivity(unchecked) var completion: Subscribers.Completion<Failure>?
    @usableFromInline @exclusivity(unchecked) var currentValue: Output
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

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        lock.lock()
        if let completion {
            lock.unlock()
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: completion)
            return
        }
        let conduit = SubjectSubscription(parent: self, downstream: subscriber)
        conduits.append(conduit)
        lock.unlock()
        subscriber.receive(subscription: conduit)
    }

    /// Sends a value to every subscriber that has demand for it, and makes it the current value.
    @inlinable
    public func send(_ input: Output) {
        lock.lock()
        sendLocked(input)
    }

    /// Stores `input` as the current value and offers it to a snapshot of the subscribers; called with `lock` held,
    /// returns with it released.
    @inlinable
    func sendLocked(_ input: Output) {
        guard isActive else {
            lock.unlock()
            return
        }
        currentValue = input
        let snapshot = conduits
        lock.unlock()
        snapshot.offerToEach(input)
    }

    /// Sends a completion to every subscriber; the first completion ends the subject, later ones are ignored.
    public func send(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard isActive else {
            lock.unlock()
            return
        }
        isActive = false
        self.completion = completion
        let snapshot = conduits
        conduits = []
        lock.unlock()
        snapshot.finishEach(completion)
    }

    @usableFromInline
    func remove(_ conduit: SubjectConduit) {
        lock.lock()
        conduits.removeConduit(conduit)
        lock.unlock()
    }
}

extension CurrentValueSubject: SubjectConduitParent {
    @usableFromInline static var subscriptionDescription: String { "CurrentValueSubject" }

    @usableFromInline static var replaysCurrentValue: Bool { true }

    @usableFromInline var currentValueForReplay: Output { value }

    @usableFromInline func subscriptionDidRequest() {}
}
