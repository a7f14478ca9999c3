import Cadence

/// Hands a non-Sendable object (a subject, a subscriber) to other threads in a stress test; the object under test
/// is what promises thread safety.
struct SubjectsSendableBox<Value>: @unchecked Sendable { // guarded by the boxed object's own thread safety
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// A subscriber built from closures, for the tests of subjects that need to act from inside `receive`.
// Closures are set before use.
final class SubjectsClosureSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    var onSubscription: (any Subscription) -> Void
    var onValue: (Input) -> Subscribers.Demand
    var onCompletion: (Subscribers.Completion<Failure>) -> Void

    init(
        onSubscription: @escaping (any Subscription) -> Void = { $0.request(.unlimited) },
        onValue: @escaping (Input) -> Subscribers.Demand = { _ in .none },
        onCompletion: @escaping (Subscribers.Completion<Failure>) -> Void = { _ in }
    ) {
        self.onSubscription = onSubscription
        self.onValue = onValue
        self.onCompletion = onCompletion
    }

    func receive(subscription: any Subscription) { onSubscription(subscription) }

    func receive(_ input: Input) -> Subscribers.Demand { onValue(input) }

    func receive(completion: Subscribers.Completion<Failure>) { onCompletion(completion) }
}

/// A subscription the tests hand to a subject through `send(subscription:)`, recording what the subject does to it.
final class SubjectsUpstreamSubscription: Subscription, @unchecked Sendable { // `lock` guards the stored vars
    private let lock = TestLock()
    private var requestsStorage: [Subscribers.Demand] = []
    private var cancelCountStorage = 0

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { requestsStorage.append(demand) }
    }

    func cancel() {
        lock.withLock { cancelCountStorage += 1 }
    }

    var requests: [Subscribers.Demand] { lock.withLock { requestsStorage } }

    var cancelCount: Int { lock.withLock { cancelCountStorage } }
}

/// The labels of a mirror's children, in order.
func subjectsMirrorLabels(of subject: Any) -> [String] {
    Mirror(reflecting: subject).children.map { $0.label ?? "" }
}
