import Cadence

/// A publisher of one subscription, itself, that records each request and cancel and then runs `onRequest` or
/// `onCancel` inside it: for tests of what an operator does when its upstream calls back into it from there.
// Set up before use, then `requests` is locked.
final class CallingBackPublisher: Publisher, Subscription, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = TestError

    let requests = LockedBox<[Subscribers.Demand]>([])
    let cancels = LockedBox(0)
    /// Runs inside each `request(_:)`, after it was recorded.
    var onRequest: () -> Void = {}
    /// Runs inside each `cancel()`, after it was counted.
    var onCancel: () -> Void = {}
    private var downstream: AnySubscriber<Int, TestError>?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
        downstream = AnySubscriber(subscriber)
        subscriber.receive(subscription: self)
    }

    /// Sends `value` to the subscriber and returns what it answered.
    @discardableResult
    func send(_ value: Int) -> Subscribers.Demand {
        downstream?.receive(value) ?? .none
    }

    func request(_ demand: Subscribers.Demand) {
        requests.append(demand)
        onRequest()
    }

    func cancel() {
        cancels.mutate { $0 += 1 }
        onCancel()
    }
}
