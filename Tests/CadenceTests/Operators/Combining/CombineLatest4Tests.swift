import Cadence
import Testing

@Suite("Publishers.CombineLatest4")
struct CombineLatest4Tests {
    private let checks = MultiUpstreamChecks(arity: 4) { upstreams in
        upstreams[0]
            .combineLatest(upstreams[1], upstreams[2], upstreams[3]) { $0 * 1000 + $1 * 100 + $2 * 10 + $3 }
    }

    @Test func combinesTheLatestValues() {
        let (upstreams, subscriber) = checks.make()
        upstreams[0].send(1)
        upstreams[1].send(2)
        upstreams[2].send(3)
        #expect(subscriber.values.isEmpty)
        upstreams[3].send(4)
        upstreams[1].send(5)
        #expect(subscriber.values == [1234, 1534])
    }

    @Test func passesRequestsToEveryUpstream() {
        checks.passesRequestsToEveryUpstream()
    }

    @Test func finishesWhenAllFinish() {
        let (upstreams, subscriber) = checks.make()
        upstreams[0].send(completion: .finished)
        upstreams[1].send(completion: .finished)
        upstreams[2].send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        upstreams[3].send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func failsAtOnceAndCancelsTheOthers() {
        let (upstreams, subscriber) = checks.make()
        upstreams[1].send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
        #expect(upstreams.map(\.subscription.cancelCount) == [1, 0, 1, 1])
    }

    @Test func cancelCancelsEveryUpstream() {
        checks.cancelCancelsEveryUpstream()
    }

    @Test func emitsTuplesIsEquatableAndDescribedAsCombineLatest() throws {
        var received: [String] = []
        _ = Just(1).combineLatest(Just("b"), Just(3.0), Just(true)).sink { received.append("\($0)\($1)\($2)\($3)") }
        #expect(received == ["1b3.0true"])
        let combined = Publishers.CombineLatest4(Just(1), Just(2), Just(3), Just(4))
        try checks.isEquatableAndDescribed(
            as: "CombineLatest",
            combined,
            equalTo: Publishers.CombineLatest4(Just(1), Just(2), Just(3), Just(4)),
            notEqualTo: Publishers.CombineLatest4(Just(1), Just(2), Just(3), Just(5)))
        #expect(combined.d == Just(4))
    }
}
