import Cadence
import Testing

@Suite("Publishers.Merge8")
struct Merge8Tests {
    typealias Upstream = TestPublisher<Int, TestError>

    private func make(
        initialDemand: Subscribers.Demand = .unlimited
    ) -> ([Upstream], TestSubscriber<Int, TestError>) {
        let upstreams = (0..<8).map { _ in Upstream() }
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: initialDemand)
        let merged = Publishers.Merge8(
            upstreams[0], upstreams[1], upstreams[2], upstreams[3],
            upstreams[4], upstreams[5], upstreams[6], upstreams[7])
        merged.subscribe(subscriber)
        return (upstreams, subscriber)
    }

    @Test func interleavesValuesAndFinishesWhenAllFinish() {
        let (upstreams, subscriber) = make()
        for (index, upstream) in upstreams.enumerated().reversed() {
            upstream.send(index)
        }
        for upstream in upstreams.dropLast() {
            upstream.send(completion: .finished)
        }
        #expect(subscriber.completions.isEmpty)
        upstreams.last?.send(completion: .finished)
        #expect(subscriber.values == Array((0..<8).reversed()))
        #expect(subscriber.completions == [.finished])
    }

    @Test func asksEveryUpstreamForOneValueAtATime() {
        let (upstreams, subscriber) = make(initialDemand: .max(1))
        #expect(upstreams.map { $0.subscription.requests } == upstreams.map { _ in [.max(1)] })
        #expect(upstreams[1].send(10) == .max(1))
        #expect(upstreams[0].send(20) == .none)
        #expect(subscriber.values == [10])
        subscriber.request(.max(1))
        #expect(subscriber.values == [10, 20])
        #expect(upstreams[0].subscription.requests == [.max(1), .max(1)])
    }

    @Test func aFailureCancelsTheOthers() {
        let (upstreams, subscriber) = make()
        upstreams[0].send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
        #expect(upstreams.map(\.subscription.cancelCount) == [0] + Array(repeating: 1, count: 7))
    }

    @Test func cancelCancelsEveryUpstream() {
        let (upstreams, subscriber) = make()
        subscriber.cancel()
        #expect(upstreams.map(\.subscription.cancelCount) == Array(repeating: 1, count: 8))
        upstreams[0].send(1)
        #expect(subscriber.events == [.subscription])
    }

    @Test func isEquatableAndDescribedAsMerge() throws {
        let first = Publishers.Merge8(Just(0), Just(1), Just(2), Just(3), Just(4), Just(5), Just(6), Just(7))
        let second = Publishers.Merge8(Just(0), Just(1), Just(2), Just(3), Just(4), Just(5), Just(6), Just(7))
        let third = Publishers.Merge8(Just(0), Just(1), Just(2), Just(3), Just(4), Just(5), Just(6), Just(99))
        #expect(first == second)
        #expect(first != third)
        #expect(first.h == Just(7))
        let (_, subscriber) = make()
        #expect(String(describing: try #require(subscriber.subscription)) == "Merge")
    }
}
