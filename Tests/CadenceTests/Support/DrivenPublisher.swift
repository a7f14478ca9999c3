import Cadence

/// A publisher driven by the test: it records what each subscriber requests and whether it cancelled, and sends
/// exactly what the test tells it to — including, on purpose, values nobody asked for, to test how operators treat a
/// misbehaving upstream.
final class DrivenPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    // `lock` guards `subscriptions`.
    private let lock = TestLock()
    private var subscriptionsStorage: [TestSubscription] = []

    /// Whether to hand the subscription to the subscriber when it subscribes (set to false to delay it).
    let sendsSubscriptionAtOnce: Bool

    init(sendsSubscriptionAtOnce: Bool = true) {
        self.sendsSubscriptionAtOnce = sendsSubscriptionAtOnce
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = TestSubscription(AnySubscriber(subscriber))
        lock.withLock { subscriptionsStorage.append(subscription) }
        if sendsSubscriptionAtOnce {
            subscriber.receive(subscription: subscription)
        }
    }

    /// Every subscription made so far, oldest first.
    var subscriptions: [TestSubscription] { lock.withLock { subscriptionsStorage } }

    /// The most recent subscription; traps when there is none.
    var subscription: TestSubscription {
        guard let last = subscriptions.last else { fatalError("DrivenPublisher: nobody has subscribed") }
        return last
    }

    /// Sends a value to every subscriber that has not cancelled, and returns the demand the last one answered.
    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        var demand = Subscribers.Demand.none
        for subscription in subscriptions where !subscription.isCancelled {
            demand = subscription.downstream.receive(value)
            subscription.add(answered: demand)
        }
        return demand
    }

    /// Sends a completion to every subscriber that has not cancelled.
    func send(completion: Subscribers.Completion<Failure>) {
        for subscription in subscriptions where !subscription.isCancelled {
            subscription.downstream.receive(completion: completion)
        }
    }

    /// One subscriber's connection: what it requested and whether it cancelled.
    final class TestSubscription: Subscription, CustomStringConvertible, @unchecked Sendable {
        let downstream: AnySubscriber<Output, Failure>
        // `lock` guards the stored vars below.
        private let lock = TestLock()
        private var requestsStorage: [Subscribers.Demand] = []
        private var answeredStorage: [Subscribers.Demand] = []
        private var cancelCountStorage = 0

        init(_ downstream: AnySubscriber<Output, Failure>) {
            self.downstream = downstream
        }

        /// Hands this subscription to its subscriber (for publishers made with `sendsSubscriptionAtOnce: false`).
        func deliver() {
            downstream.receive(subscription: self)
        }

        func request(_ demand: Subscribers.Demand) {
            lock.withLock { requestsStorage.append(demand) }
        }

        func cancel() {
            lock.withLock { cancelCountStorage += 1 }
        }

        fileprivate func add(answered demand: Subscribers.Demand) {
            lock.withLock { answeredStorage.append(demand) }
        }

        /// Each `request(_:)` call, in order.
        var requests: [Subscribers.Demand] { lock.withLock { requestsStorage } }

        /// Each demand the subscriber returned from `receive(_:)`, in order.
        var answered: [Subscribers.Demand] { lock.withLock { answeredStorage } }

        /// Everything requested, through `request(_:)` and returned from `receive(_:)`.
        var totalDemand: Subscribers.Demand {
            lock.withLock { (requestsStorage + answeredStorage).reduce(.none, +) }
        }

        var cancelCount: Int { lock.withLock { cancelCountStorage } }

        var isCancelled: Bool { cancelCount > 0 }

        var description: String { "TestSubscription" }
    }
}
