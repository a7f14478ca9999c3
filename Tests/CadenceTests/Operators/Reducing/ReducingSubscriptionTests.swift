import Cadence
import Dispatch
import Testing

/// The shared machinery behind the reducing operators, exercised through `reduce` and `collect()`.
@Suite("ReducingSubscription")
struct ReducingSubscriptionTests {
    private final class Token: Sendable {}

    @Test func finishingReleasesTheClosure() {
        let upstream = TestPublisher<Int, TestError>()
        weak var weakToken: Token?
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        do {
            let token = Token()
            weakToken = token
            upstream.reduce(0) { _ = token; return $0 + $1 }.subscribe(subscriber)
        }
        upstream.send(1)
        #expect(weakToken != nil)
        upstream.send(completion: .finished)
        #expect(weakToken == nil)
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func cancellingReleasesTheClosureAndTheDownstream() {
        let upstream = TestPublisher<Int, TestError>()
        weak var weakToken: Token?
        weak var weakSubscriber: TestSubscriber<Int, TestError>?
        var subscription: (any Subscription)?
        do {
            let token = Token()
            weakToken = token
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
            weakSubscriber = subscriber
            upstream.reduce(0) { _ = token; return $0 + $1 }.subscribe(subscriber)
            subscription = subscriber.subscription
            subscriber.releaseSubscription()
        }
        #expect(weakToken != nil)
        #expect(weakSubscriber != nil)
        subscription?.cancel()
        #expect(weakToken == nil)
        #expect(weakSubscriber == nil)
        #expect(upstream.subscription.cancelCount == 1)
    }

    @Test func aRequestRacingTheFinishDeliversExactlyOnce() {
        for _ in 0..<200 {
            let upstream = TestPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
            upstream.reduce(0, +).subscribe(subscriber)
            upstream.send(2)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 {
                    upstream.send(completion: .finished)
                } else {
                    subscriber.request(.max(1))
                }
            }
            #expect(subscriber.events == [.subscription, .value(2), .completion(.finished)])
        }
    }

    @Test func aCancelRacingTheFinishDeliversAtMostOnce() {
        for _ in 0..<200 {
            let upstream = TestPublisher<Int, TestError>()
            let subscriber = TestSubscriber<[Int], TestError>(initialDemand: .max(1))
            upstream.collect().subscribe(subscriber)
            upstream.send(3)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 {
                    upstream.subscription.downstream.receive(completion: .finished)
                } else {
                    subscriber.cancel()
                }
            }
            let events = subscriber.events
            let delivered: [Event<[Int], TestError>] = [.subscription, .value([3]), .completion(.finished)]
            #expect(events == [.subscription] || events == delivered)
        }
    }

    @Test func anEarlyAnswerRacingARequestDeliversExactlyOnce() {
        for _ in 0..<200 {
            let upstream = TestPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
            upstream.first().subscribe(subscriber)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 {
                    upstream.send(9)
                } else {
                    subscriber.request(.max(1))
                }
            }
            #expect(subscriber.events == [.subscription, .value(9), .completion(.finished)])
            #expect(upstream.subscription.cancelCount == 1)
        }
    }
}
