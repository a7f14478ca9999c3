import CadenceTesting
import Dispatch

/// Sends `values`, then `completion` if any, to `subject` on a global queue after `delay`, in order.
func send<Output, Failure: Error>(
    _ values: [Output],
    completion: Subscribers.Completion<Failure>? = nil,
    to subject: PassthroughSubject<Output, Failure>,
    after delay: DispatchTimeInterval = .milliseconds(20)
) {
    let subject = CrossThread(subject)
    let events = CrossThread((values, completion))
    DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
        for value in events.value.0 { subject.value.send(value) }
        if let completion = events.value.1 { subject.value.send(completion: completion) }
    }
}

/// A publisher that hands over no subscription at all.
struct SilentPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    func receive<S: Subscriber>(subscriber _: S) where S.Input == Int, S.Failure == Never {}
}

/// A publisher that sends its value as soon as it subscribes, whatever the demand — a contract breaker.
struct PushyPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    let value: Int

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriber.receive(subscription: NoopSubscription())
        _ = subscriber.receive(value)
    }
}

/// A subscription that ignores demand and cancellation.
final class NoopSubscription: Subscription {
    func request(_: Subscribers.Demand) {}
    func cancel() {}
}
