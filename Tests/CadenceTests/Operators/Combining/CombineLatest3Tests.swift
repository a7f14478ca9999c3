import Cadence
import Testing

@Suite("Publishers.CombineLatest3")
struct CombineLatest3Tests {
    typealias Upstream = TestPublisher<Int, TestError>

    private func make(
        initialDemand: Subscribers.Demand = .unlimited
    ) -> ([Upstream], TestSubscriber<Int, TestError>) {
        let upstreams = (0..<3).map { _ in Upstream() }
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: initialDemand)
        upstreams[0].combineLatest(upstreams[1], upstreams[2]) { $0 * 100 + $1 * 10 + $2 }.subscribe(subscriber)
        return (upstreams, subscriber)
    }

    @Test func combinesTheLatestValues() {
        let (upstreams, subscriber) = make()
        upstreams[0].send(1)
        upstreams[1].send(2)
        #expect(subscriber.values.isEmpty)
        upstreams[2].send(3)
        upstreams[1].send(5)
        upstreams[0].send(4)
        #expect(subscriber.values == [123, 153, 453])
    }

    @Test func passesRequestsToEveryUpstream() {
        let (upstreams, subscriber) = make(initialDemand: .max(1))
        subscriber.request(.max(2))
        #expect(upstreams.map(\.subscription.requests) == Array(repeating: [.max(1), .max(2)], count: 3))
    }

    @Test func finishesWhenAllFinish() {
        let (upstreams, subscriber) = make()
        upstreams[0].send(completion: .finished)
        upstreams[1].send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        upstreams[2].send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func failsAtOnceAndCancelsTheOthers() {
        let (upstreams, subscriber) = make()
        upstreams[1].send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
        #expect(upstreams.map(\.subscription.cancelCount) == [1, 0, 1])
    }

    @Test func cancelCancelsEveryUpstream() {
        let (upstreams, subscriber) = make()
        subscriber.cancel()
        upstreams.forEach { $0.send(1) }
        #expect(upstreams.map(\.subscription.cancelCount) == [1, 1, 1])
        #expect(subscriber.events == [.subscription])
    }

    @Test func emitsTuplesIsEquatableAndDescribedAsCombineLatest() throws {
        var received: [String] = []
        _ = Just(1).combineLatest(Just("b"), Just(3.0)).sink { received.append("\($0)\($1)\($2)") }
        #expect(received == ["1b3.0"])
        let combined = Publishers.CombineLatest3(Just(1), Just(2), Just(3))
        #expect(combined == Publishers.CombineLatest3(Just(1), Just(2), Just(3)))
        #expect(combined != Publishers.CombineLatest3(Just(1), Just(2), Just(4)))
        #expect(combined.c == Just(3))
        let (_, subscriber) = make()
        #expect(String(describing: try #require(subscriber.subscription)) == "CombineLatest")
    }
}
