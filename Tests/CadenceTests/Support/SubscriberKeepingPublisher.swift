import Cadence

/// A publisher that keeps the subscriber it was given and sends it nothing until told to: it gives a test the
/// operator's own subscriber before the operator has its upstream subscription.
final class SubscriberKeepingPublisher<Output>: Publisher, @unchecked Sendable { // used from the test's thread only
    typealias Failure = TestError

    private(set) var subscriber: (any Subscriber)?
    private var sendSubscription: ((any Subscription) -> Void)?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        self.subscriber = subscriber
        sendSubscription = { subscriber.receive(subscription: $0) }
    }

    func send(subscription: any Subscription) {
        sendSubscription?(subscription)
    }
}
