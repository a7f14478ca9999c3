import Cadence
import Testing

@Suite("Empty")
struct EmptyTests {
    @Test func finishesImmediatelyWithoutDemand() {
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        Empty<Int, TestError>().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func neverCompletesWhenAskedNotTo() {
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .unlimited)
        Empty<Int, TestError>(completeImmediately: false).subscribe(subscriber)
        subscriber.request(.max(3))
        #expect(subscriber.events == [.subscription])
    }

    @Test func everySubscriberGetsTheEmptySubscription() {
        let publisher = Empty<String, Never>()
        let first = TestSubscriber<String, Never>()
        let second = TestSubscriber<String, Never>()
        publisher.subscribe(first)
        publisher.subscribe(second)
        #expect(first.events == [.subscription, .completion(.finished)])
        #expect(second.events == [.subscription, .completion(.finished)])
        #expect(first.subscription.map { String(describing: $0) } == "Empty")
    }

    @Test func cancellingTheSubscriptionIsHarmless() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Empty<Int, Never>(completeImmediately: false).subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription])
    }

    @Test func typedInitializerAndEquality() {
        let typed = Empty(completeImmediately: false, outputType: Int.self, failureType: TestError.self)
        #expect(typed == Empty<Int, TestError>(completeImmediately: false))
        #expect(typed != Empty<Int, TestError>())
        #expect(typed.completeImmediately == false)
        #expect(Empty<Int, Never>().completeImmediately)
    }
}
