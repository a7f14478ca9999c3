import CadenceSupport

/// The subject behind one `@Published` property: it keeps the property's value, gives it to each new subscriber at
/// its first request, and on every change sends the owning object's `objectWillChange`, then the new value, and only
/// then stores it (Combine's willSet timing). It never completes.
///
/// It finds the owning object's `ObservableObjectPublisher` without reflection: the property's accessors hand it
/// the enclosing object, and the subject looks the publisher up in `ObservableObjectRegistry` (again only after the
/// registry's generation has moved), then keeps it.
final class PublishedSubject<Value>: Subject {
    typealias Output = Value
    typealias Failure = Never

    private struct WeakObject {
        weak var object: AnyObject?
    }

    // `lock` guards the stored vars below.
    private let lock = UnfairLock()
    private var conduits = ContiguousArray<SubjectConduit>()
    private var currentValue: Value
    private var upstreamSubscriptions: [any Subscription] = []
    private var changePublisher: ObservableObjectPublisher?
    private var enclosing = WeakObject()
    private var knowsEnclosing = false
    private var checkedGeneration = UInt.max

    init(_ value: Value) {
        currentValue = value
    }

    deinit {
        for subscription in upstreamSubscriptions {
            subscription.cancel()
        }
    }

    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return currentValue
    }

    /// Remembers (weakly) the object whose property this is, so values that arrive through `assign(to:)` also
    /// reach its `objectWillChange`.
    func noteEnclosingObject(_ object: AnyObject) {
        lock.lock()
        if !knowsEnclosing {
            enclosing.object = object
            knowsEnclosing = true
        }
        lock.unlock()
    }

    func send(subscription: any Subscription) {
        lock.lock()
        upstreamSubscriptions.append(subscription)
        lock.unlock()
        subscription.request(.unlimited)
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
        let conduit = SubjectSubscription(parent: self, downstream: subscriber)
        lock.lock()
        conduits.append(conduit)
        lock.unlock()
        subscriber.receive(subscription: conduit)
    }

    func send(_ input: Value) {
        send(input, enclosing: nil)
    }

    /// Publishes a change: `objectWillChange` first, then the value to the subscribers, then stores it.
    func send(_ input: Value, enclosing object: AnyObject?) {
        lock.lock()
        let snapshot = conduits
        var publisher = changePublisher
        var owner: AnyObject?
        var checked = UInt.max
        if publisher == nil {
            if let object, !knowsEnclosing {
                enclosing.object = object
                knowsEnclosing = true
            }
            owner = object ?? enclosing.object
            checked = checkedGeneration
        }
        lock.unlock()
        if publisher == nil, let owner {
            publisher = lookUpChangePublisher(for: owner, checkedGeneration: checked)
        }
        publisher?.send()
        snapshot.offerToEach(input)
        lock.lock()
        currentValue = input
        lock.unlock()
    }

    private func lookUpChangePublisher(
        for owner: AnyObject, checkedGeneration checked: UInt
    )
        -> ObservableObjectPublisher?
    {
        let generation = ObservableObjectRegistry.generation.load(ordering: .acquiring)
        guard generation != checked else { return nil }
        let found = ObservableObjectRegistry.existingPublisher(for: owner)
        lock.lock()
        if changePublisher == nil {
            changePublisher = found
        }
        checkedGeneration = generation
        let publisher = changePublisher
        lock.unlock()
        return publisher
    }

    func send(completion: Subscribers.Completion<Never>) {}

    func remove(_ conduit: SubjectConduit) {
        lock.lock()
        conduits.removeConduit(conduit)
        lock.unlock()
    }
}

extension PublishedSubject: SubjectConduitParent {
    static var subscriptionDescription: String { "PublishedSubject" }

    static var replaysCurrentValue: Bool { true }

    var currentValueForReplay: Value { value }

    func subscriptionDidRequest() {}
}
