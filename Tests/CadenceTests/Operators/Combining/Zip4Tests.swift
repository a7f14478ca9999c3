import Cadence
import Testing

@Suite("Publishers.Zip4")
struct Zip4Tests {
    private let checks = MultiUpstreamChecks(arity: 4) { upstreams in
        upstreams[0]
            .zip(upstreams[1], upstreams[2], upstreams[3]) { $0 * 1000 + $1 * 100 + $2 * 10 + $3 }
    }

    @Test func combinesTheNthValueOfEachUpstream() {
        let (upstreams, subscriber) = checks.make()
        upstreams[0].send(1)
        upstreams[0].send(5)
        upstreams[1].send(2)
        upstreams[2].send(3)
        #expect(subscriber.values.isEmpty)
        upstreams[3].send(4)
        upstreams[1].send(6)
        upstreams[2].send(7)
        upstreams[3].send(8)
        #expect(subscriber.values == [1234, 5678])
    }

    @Test func passesRequestsToEveryUpstream() {
        checks.passesRequestsToEveryUpstream()
    }

    @Test func finishesWhenAnUpstreamFinishesWithNothingWaiting() {
        let (upstreams, subscriber) = checks.make()
        upstreams[0].send(1)
        upstreams[3].send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(upstreams.map(\.subscription.cancelCount) == [1, 1, 1, 0])
    }

    @Test func failsAtOnce() {
        let (upstreams, subscriber) = checks.make()
        upstreams[1].send(completion: .failure(.oops))
        upstreams[0].send(1)
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
        #expect(upstreams.map(\.subscription.cancelCount) == [1, 1, 1, 1])
    }

    @Test func cancelCancelsEveryUpstream() {
        checks.cancelCancelsEveryUpstream()
    }

    @Test func emitsTuplesIsEquatableAndDescribedAsZip() throws {
        var received: [String] = []
        _ = Just(1).zip(Just("b"), Just(3.0), Just(true)).sink { received.append("\($0)\($1)\($2)\($3)") }
        #expect(received == ["1b3.0true"])
        let zip = Publishers.Zip4(Just(1), Just(2), Just(3), Just(4))
        try checks.isEquatableAndDescribed(
            as: "Zip",
            zip,
            equalTo: Publishers.Zip4(Just(1), Just(2), Just(3), Just(4)),
            notEqualTo: Publishers.Zip4(Just(1), Just(2), Just(3), Just(5)))
        #expect(zip.d == Just(4))
    }
}
