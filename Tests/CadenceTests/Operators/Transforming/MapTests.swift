import Cadence
import Testing

@Suite("Publishers.Map")
struct MapTests {
    @Test func transformsEachValueAndPassesCompletionThrough() {
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<String, TestError>()
        upstream.map { "#\($0)" }.subscribe(subscriber)

        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value("#1"), .value("#2"), .completion(.finished)])
    }

    @Test func passesFailureThrough() {
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.map { $0 * 2 }.subscribe(subscriber)

        upstream.send(3)
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value(6), .completion(.failure(.oops))])
    }

    @Test func demandPassesThroughUntouched() {
        let upstream = DrivenPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1)) { $0 == 11 ? .max(2) : .none }
        upstream.map { $0 + 10 }.subscribe(subscriber)

        #expect(upstream.subscription.requests == [.max(1)])
        #expect(upstream.send(1) == .max(2))
        #expect(upstream.send(2) == .none)
        subscriber.request(.max(5))
        #expect(upstream.subscription.requests == [.max(1), .max(5)])
        #expect(subscriber.values == [11, 12])
    }

    @Test func cancelReachesTheUpstream() {
        let upstream = DrivenPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.map { $0 }.subscribe(subscriber)

        subscriber.cancel()
        #expect(upstream.subscription.cancelCount == 1)
    }

    @Test func twoMapsFuseIntoOne() {
        let fused: Publishers.Map<Just<Int>, String> = Just(2).map { $0 * 3 }.map { "\($0)" }
        let subscriber = TestSubscriber<String, Never>()
        fused.subscribe(subscriber)
        #expect(subscriber.values == ["6"])
    }

    @Test func describesItselfAsMap() {
        let upstream = DrivenPublisher<Int, Never>()
        upstream.map { $0 }.subscribe(TestSubscriber<Int, Never>())
        #expect(upstream.subscription.downstream.description == "Map")
    }
}
