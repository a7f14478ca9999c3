import Cadence
import Testing

@Suite("Deferred")
struct DeferredTests {
    @Test func createsAPublisherPerSubscriptionOnlyWhenSubscribed() {
        let created = PublishersTestBox(0)
        let deferred = Deferred { () -> Just<Int> in
            created.withLock { $0 += 1 }
            return Just(created.value)
        }
        #expect(created.value == 0)
        let first = TestSubscriber<Int, Never>()
        deferred.subscribe(first)
        let second = TestSubscriber<Int, Never>()
        deferred.subscribe(second)
        #expect(created.value == 2)
        #expect(first.events == [.subscription, .value(1), .completion(.finished)])
        #expect(second.events == [.subscription, .value(2), .completion(.finished)])
    }

    @Test func passesDemandAndCancellationStraightToTheCreatedPublisher() {
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        Deferred { upstream }.subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "TestSubscription")
        #expect(upstream.send(1) == .none)
        subscriber.request(.max(2))
        #expect(upstream.subscription.requests == [.max(1), .max(2)])
        subscriber.cancel()
        #expect(upstream.subscription.isCancelled)
        #expect(subscriber.values == [1])
    }

    @Test func forwardsFailure() {
        let subscriber = TestSubscriber<Int, TestError>()
        Deferred { Fail<Int, TestError>(error: .oops) }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
    }
}
