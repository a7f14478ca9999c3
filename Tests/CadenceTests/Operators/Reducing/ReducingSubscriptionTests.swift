import Cadence
import Dispatch
import Testing

/// The shared machinery behind the reducing operators, exercised through `reduce` and `collect()`.
@Suite("ReducingSubscription")
struct ReducingSubscriptionTests {
    private final class Token: Sendable {}

    /// As in Combine, a finished subscription keeps its closure (and downstream) until the upstream and the subscriber
    /// let go of it.
    @Test func finishingKeepsTheClosureUntilTheSubscriptionGoes() {
        var upstream: DrivenPublisher<Int, TestError>? = DrivenPublisher<Int, TestError>()
        weak var weakToken: Token?
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        do {
            let token = Token()
            weakToken = token
            upstream?.reduce(0) {
                _ = token
                return $0 + $1
            }.subscribe(subscriber)
        }
        upstream?.send(1)
        upstream?.send(completion: .finished)
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(weakToken != nil)
        subscriber.releaseSubscription()
        #expect(weakToken != nil)
        upstream = nil
        #expect(weakToken == nil)
    }

    /// As in Combine, a cancelled subscription keeps its closure and its downstream until the upstream and the
    /// subscriber let go of it; the closure is not called after the cancel.
    @Test func cancellingKeepsTheClosureAndTheDownstreamUntilTheSubscriptionGoes() {
        var upstream: DrivenPublisher<Int, TestError>? = DrivenPublisher<Int, TestError>()
        weak var weakToken: Token?
        weak var weakSubscriber: TestSubscriber<Int, TestError>?
        var subscription: (any Subscription)?
        let calls = ReducingCounter()
        do {
            let token = Token()
            weakToken = token
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
            weakSubscriber = subscriber
            upstream?.reduce(0) {
                _ = token
                calls.increment()
                return $0 + $1
            }.subscribe(subscriber)
            subscription = subscriber.subscription
            subscriber.releaseSubscription()
        }
        subscription?.cancel()
        #expect(upstream?.subscription.cancelCount == 1)
        #expect(upstream?.subscription.downstream.receive(1) == Subscribers.Demand.none)
        #expect(calls.value == 0)
        #expect(weakToken != nil)
        #expect(weakSubscriber != nil)
        subscription = nil
        #expect(weakToken != nil)
        upstream = nil
        #expect(weakToken == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func theMirrorShowsTheRunningResultAndTheInitialOne() throws {
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        upstream.reduce(10, +).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(Mirror(reflecting: subscription).descendant("result") as? Int == 10)
        upstream.send(1)
        upstream.send(2)
        let mirror = Mirror(reflecting: subscription)
        #expect(mirror.children.map(\.label) == ["downstream", "result", "initial", "status"])
        #expect(mirror.descendant("result") as? Int == 13)
        #expect(mirror.descendant("initial") as? Int == 10)
    }

    @Test func collectsMirrorShowsOnlyItsCount() throws {
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<[Int], TestError>(initialDemand: .none)
        upstream.collect().subscribe(subscriber)
        upstream.send(4)
        upstream.send(5)
        let mirror = Mirror(reflecting: try #require(subscriber.subscription))
        #expect(mirror.children.map(\.label) == ["count"])
        #expect(mirror.descendant("count") as? Int == 2)
    }

    /// The downstream gets the subscription only with the upstream's: a cancel before that can come only from a caller
    /// that kept the subscriber, and Combine ignores it.
    @Test func aCancelBeforeTheUpstreamSubscriptionIsIgnored() throws {
        let upstream = SubscriberKeepingPublisher<Int>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        upstream.count().subscribe(subscriber)
        let operatorSubscription = try #require(upstream.subscriber as? any Subscription)
        operatorSubscription.cancel()
        let source = DrivenPublisher<Int, TestError>()
        source.subscribe(TestSubscriber<Int, TestError>(initialDemand: .none))
        upstream.send(subscription: source.subscription)
        #expect(source.subscription.requests == [.unlimited])
        #expect(source.subscription.cancelCount == 0)
        #expect(subscriber.events == [.subscription])
    }

    @Test func aRequestRacingTheFinishDeliversExactlyOnce() {
        for _ in 0..<200 {
            let upstream = DrivenPublisher<Int, TestError>()
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
            let upstream = DrivenPublisher<Int, TestError>()
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
            let upstream = DrivenPublisher<Int, TestError>()
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
