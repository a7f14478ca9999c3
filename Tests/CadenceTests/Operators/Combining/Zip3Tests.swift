import Cadence
import Testing

@Suite("Publishers.Zip3")
struct Zip3Tests {
    typealias Upstream = TestPublisher<Int, TestError>

    private func make(
        initialDemand: Subscribers.Demand = .unlimited
    ) -> ([Upstream], TestSubscriber<Int, TestError>) {
        let upstreams = (0..<3).map { _ in Upstream() }
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: initialDemand)
        upstreams[0].zip(upstreams[1], upstreams[2]) { $0 * 100 + $1 * 10 + $2 }.subscribe(subscriber)
        return (upstreams, subscriber)
    }

    @Test func combinesTheNthValueOfEachUpstream() {
        let (upstreams, subscriber) = make()
        upstreams[0].send(1)
        upstreams[0].send(4)
        upstreams[1].send(2)
        #expect(subscriber.values.isEmpty)
        upstreams[2].send(3)
        upstreams[1].send(5)
        upstreams[2].send(6)
        #expect(subscriber.values == [123, 456])
    }

    @Test func passesRequestsToEveryUpstream() {
        let (upstreams, subscriber) = make(initialDemand: .max(1))
        subscriber.request(.max(2))
        #expect(upstreams.map(\.subscription.requests) == Array(repeating: [.max(1), .max(2)], count: 3))
    }

    @Test func finishesWhenAnUpstreamFinishesWithNothingWaiting() {
        let (upstreams, subscriber) = make()
        upstreams[0].send(1)
        upstreams[2].send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(upstreams.map(\.subscription.cancelCount) == [1, 1, 0])
    }

    @Test func failsAtOnce() {
        let (upstreams, subscriber) = make()
        upstreams[1].send(completion: .failure(.oops))
        upstreams[0].send(1)
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
        #expect(upstreams.map(\.subscription.cancelCount) == [1, 1, 1])
    }

    @Test func cancelCancelsEveryUpstream() {
        let (upstreams, subscriber) = make()
        subscriber.cancel()
        upstreams.forEach { $0.send(1) }
        #expect(upstreams.map(\.subscription.cancelCount) == [1, 1, 1])
        #expect(subscriber.events == [.subscription])
    }

    @Test func emitsTuplesIsEquatableAndDescribedAsZip() throws {
        var received: [String] = []
        _ = Just(1).zip(Just("b"), Just(3.0)).sink { received.append("\($0)\($1)\($2)") }
        #expect(received == ["1b3.0"])
        let zip = Publishers.Zip3(Just(1), Just(2), Just(3))
        #expect(zip == Publishers.Zip3(Just(1), Just(2), Just(3)))
        #expect(zip != Publishers.Zip3(Just(1), Just(2), Just(4)))
        #expect(zip.c == Just(3))
        let (_, subscriber) = make()
        #expect(String(describing: try #require(subscriber.subscription)) == "Zip")
    }
}
