import Cadence
import Testing

@Suite("Publishers.CombineLatest3")
struct CombineLatest3Tests {
    private let checks = MultiUpstreamChecks(arity: 3) { upstreams in
        upstreams[0].combineLatest(upstreams[1], upstreams[2]) { $0 * 100 + $1 * 10 + $2 }
    }

    @Test func combinesTheLatestValues() {
        let (upstreams, subscriber) = checks.make()
        upstreams[0].send(1)
        upstreams[1].send(2)
        #expect(subscriber.values.isEmpty)
        upstreams[2].send(3)
        upstreams[1].send(5)
        upstreams[0].send(4)
        #expect(subscriber.values == [123, 153, 453])
    }

    @Test func passesRequestsToEveryUpstream() {
        checks.passesRequestsToEveryUpstream()
    }

    @Test func finishesWhenAllFinish() {
        let (upstreams, subscriber) = checks.make()
        upstreams[0].send(completion: .finished)
        upstreams[1].send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        upstreams[2].send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func failsAtOnceAndCancelsTheOthers() {
        let (upstreams, subscriber) = checks.make()
        upstreams[1].send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
        #expect(upstreams.map(\.subscription.cancelCount) == [1, 0, 1])
    }

    @Test func cancelCancelsEveryUpstream() {
        checks.cancelCancelsEveryUpstream()
    }

    @Test func emitsTuplesIsEquatableAndDescribedAsCombineLatest() throws {
        var received: [String] = []
        _ = Just(1).combineLatest(Just("b"), Just(3.0)).sink { received.append("\($0)\($1)\($2)") }
        #expect(received == ["1b3.0"])
        let combined = Publishers.CombineLatest3(Just(1), Just(2), Just(3))
        try checks.isEquatableAndDescribed(
            as: "CombineLatest",
            combined,
            equalTo: Publishers.CombineLatest3(Just(1), Just(2), Just(3)),
            notEqualTo: Publishers.CombineLatest3(Just(1), Just(2), Just(4)))
        #expect(combined.c == Just(3))
    }
}
