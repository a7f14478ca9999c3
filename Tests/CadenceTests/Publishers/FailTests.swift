import Cadence
import Testing

@Suite("Fail")
struct FailTests {
    @Test func failsImmediatelyWithoutDemand() {
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        Fail<Int, TestError>(error: .oops).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
        #expect(subscriber.subscription.map { String(describing: $0) } == "Empty")
    }

    @Test func failsEverySubscriber() {
        let publisher = Fail(outputType: String.self, failure: TestError.other)
        let first = TestSubscriber<String, TestError>()
        let second = TestSubscriber<String, TestError>()
        publisher.subscribe(first)
        publisher.subscribe(second)
        #expect(first.events == [.subscription, .completion(.failure(.other))])
        #expect(second.events == [.subscription, .completion(.failure(.other))])
    }

    @Test func requestsAndCancelAfterTheFailureDeliverNothing() {
        let subscriber = TestSubscriber<Int, TestError>()
        Fail<Int, TestError>(error: .oops).subscribe(subscriber)
        subscriber.request(.max(1))
        subscriber.cancel()
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
    }

    @Test func errorAndEquality() {
        #expect(Fail<Int, TestError>(error: .oops).error == .oops)
        #expect(Fail<Int, TestError>(error: .oops) == Fail(outputType: Int.self, failure: .oops))
        #expect(Fail<Int, TestError>(error: .oops) != Fail(error: .other))
    }
}
