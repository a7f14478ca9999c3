import Cadence
import Testing

@Suite("Publishers.Share")
struct ShareTests {
    typealias Source = DrivenPublisher<Int, TestError>

    @Test func sharesOneUpstreamSubscription() {
        let upstream = Source()
        let shared = upstream.share()
        let first = TestSubscriber<Int, TestError>()
        let second = TestSubscriber<Int, TestError>()
        shared.subscribe(first)
        #expect(upstream.subscriptions.count == 1)
        #expect(upstream.subscription.requests == [.unlimited])
        shared.subscribe(second)
        #expect(upstream.subscriptions.count == 1)
        upstream.send(1)
        upstream.send(completion: .finished)
        let expected: [Event<Int, TestError>] = [.subscription, .value(1), .completion(.finished)]
        #expect(first.events == expected)
        #expect(second.events == expected)
    }

    @Test func aLateSubscriberMissesEarlierValues() {
        let upstream = Source()
        let shared = upstream.share()
        let early = TestSubscriber<Int, TestError>()
        shared.subscribe(early)
        upstream.send(1)
        let late = TestSubscriber<Int, TestError>()
        shared.subscribe(late)
        upstream.send(2)
        #expect(early.values == [1, 2])
        #expect(late.values == [2])
    }

    @Test func failureReachesEverySubscriber() {
        let upstream = Source()
        let shared = upstream.share()
        let first = TestSubscriber<Int, TestError>()
        let second = TestSubscriber<Int, TestError>()
        shared.subscribe(first)
        shared.subscribe(second)
        upstream.send(completion: .failure(.oops))
        #expect(first.completions == [.failure(.oops)])
        #expect(second.completions == [.failure(.oops)])
    }

    @Test func eachSubscribersDemandIsHonoured() {
        let upstream = Source()
        let shared = upstream.share()
        let limited = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        shared.subscribe(limited)
        upstream.send(1)
        upstream.send(2)
        #expect(limited.values == [1])
    }

    @Test func theUpstreamIsCancelledWhenTheLastSubscriberCancels() {
        let upstream = Source()
        let shared = upstream.share()
        let first = TestSubscriber<Int, TestError>()
        let second = TestSubscriber<Int, TestError>()
        shared.subscribe(first)
        shared.subscribe(second)
        first.cancel()
        #expect(!upstream.subscription.isCancelled)
        upstream.send(1)
        #expect(first.values == [])
        #expect(second.values == [1])
        second.cancel()
        #expect(upstream.subscription.cancelCount == 1)
        shared.subscribe(TestSubscriber<Int, TestError>())
        #expect(upstream.subscriptions.count == 2)
    }

    @Test func aSynchronousUpstreamReachesOnlyTheFirstSubscriber() {
        let shared = Just(1).share()
        let first = TestSubscriber<Int, Never>()
        let second = TestSubscriber<Int, Never>()
        shared.subscribe(first)
        shared.subscribe(second)
        #expect(first.events == [.subscription, .value(1), .completion(.finished)])
        #expect(second.events == [.subscription, .completion(.finished)])
    }

    @Test func equalOnlyToItself() {
        let upstream = Source()
        let shared = upstream.share()
        #expect(shared == shared)
        #expect(shared != upstream.share())
        #expect(shared.upstream === upstream)
    }

    @Test func theSubscriptionIsMulticasts() throws {
        let subscriber = TestSubscriber<Int, TestError>()
        Source().share().subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect((subscription as? any CustomStringConvertible)?.description == "Multicast")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "Multicast")
    }
}
