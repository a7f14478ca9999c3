import Cadence
import Testing

@Suite("Publishers.Zip3")
struct Zip3Tests {
    private let checks = MultiUpstreamChecks(arity: 3) { upstreams in
        upstreams[0].zip(upstreams[1], upstreams[2]) { $0 * 100 + $1 * 10 + $2 }
    }

    @Test func combinesTheNthValueOfEachUpstream() {
        let (upstreams, subscriber) = checks.make()
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
        checks.passesRequestsToEveryUpstream()
    }

    @Test func finishesWhenAnUpstreamFinishesWithNothingWaiting() {
        let (upstreams, subscriber) = checks.make()
        upstreams[0].send(1)
        upstreams[2].send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(upstreams.map(\.subscription.cancelCount) == [1, 1, 0])
    }

    @Test func failsAtOnce() {
        let (upstreams, subscriber) = checks.make()
        upstreams[1].send(completion: .failure(.oops))
        upstreams[0].send(1)
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
        #expect(upstreams.map(\.subscription.cancelCount) == [1, 1, 1])
    }

    @Test func cancelCancelsEveryUpstream() {
        checks.cancelCancelsEveryUpstream()
    }

    @Test func emitsTuplesIsEquatableAndDescribedAsZip() throws {
        var received: [String] = []
        _ = Just(1).zip(Just("b"), Just(3.0)).sink { received.append("\($0)\($1)\($2)") }
        #expect(received == ["1b3.0"])
        let zip = Publishers.Zip3(Just(1), Just(2), Just(3))
        try checks.isEquatableAndDescribed(
            as: "Zip",
            zip,
            equalTo: Publishers.Zip3(Just(1), Just(2), Just(3)),
            notEqualTo: Publishers.Zip3(Just(1), Just(2), Just(4)))
        #expect(zip.c == Just(3))
    }
}
