import CadenceSupport

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
    // `lock` guards the stored vars below, so exclusivity is not checked at run time. `isActive` mirrors
    // `completion == nil` for the hot path, which would otherwise look up generic metadata on every send.
    // `receive(subscriber:)` and `send(_:)` are inlinable (see `SubjectSubscription`): what they touch is
    // `@usableFromInline`.
    @usableFromInline let lock = UnfairLock()
    @usableFromInline @exclusivity(unchecked) var conduits = ContiguousArray<SubjectConduit>()
    @usableFromInline @exclusivity(unchecked) var isActive = true
    @usableFromInline @exclusivity(unchecked) var completion: Subscribers.Completion<Failure>?
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

    /// Sends a value to every subscriber that has demand for it.
    @inlinable
    public func send(_ input: Output) {
        lock.lock()
        guard isActive else {
            lock.unlock()
            return
        }
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

    /// Called by a subscription that received a request: the first one opens the upstream subscriptions.
    private func acknowledgeDownstreamDemand() {
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

    @usableFromInline
    func remove(_ conduit: SubjectConduit) {
        lock.lock()
        conduits.removeConduit(conduit)
        lock.unlock()
    }
}

extension PassthroughSubject: SubjectConduitParent {
    @usableFromInline static var subscriptionDescription: String { "PassthroughSubject" }

    @usableFromInline static var replaysCurrentValue: Bool { false }

    @usableFromInline var currentValueForReplay: Output {
        requirementFailure("PassthroughSubject keeps no current value")
    }

    @usableFromInline func subscriptionDidRequest() {
        acknowledgeDownstreamDemand()
    }
}
