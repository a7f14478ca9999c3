import Cadence
import Testing

@Suite("Publishers.FirstWhere")
struct FirstWhereTests {
    @Test func sharesTheReducingBehaviour() {
        ReducingChecks.all(name: "TryFirst", inputs: [0, 1, 2, 3], result: "2", emptyResult: nil) {
            $0.first { $0 > 1 }
        }
    }

    @Test func finishesEmptyWithoutAMatch() {
        ReducingChecks.holdsResultUntilRequested(inputs: [0, 1], result: nil) { $0.first { $0 > 1 } }
    }

    @Test func describesItselfAsTryFirstLikeCombine() {
        let harness = ReducingHarness(initialDemand: .none) { $0.first { $0 > 1 } }
        #expect(harness.subscriber.subscription.map { "\($0)" } == "TryFirst")
    }

    @Test func answersEarlyCancellingTheUpstreamAndWaitsForDemand() {
        let calls = ReducingCounter()
        let harness = ReducingHarness(initialDemand: .none) { upstream in
            upstream.first { calls.increment(); return $0 > 1 }
        }
        harness.send([0, 1, 2])
        #expect(harness.cancelCount == 1)
        #expect(harness.events == ["subscription"])
        harness.force(100)
        harness.force(completion: .finished)
        #expect(calls.value == 3)
        #expect(harness.events == ["subscription"])
        harness.subscriber.request(.max(1))
        #expect(harness.events == ["subscription", "value(2)", "finished"])
        #expect(harness.requests == [.unlimited])
        #expect(harness.cancelCount == 1)
    }

    @Test func requestsUnlimitedWhateverTheDownstreamAsks() {
        let harness = ReducingHarness(initialDemand: .max(1)) { $0.first { $0 > 1 } }
        #expect(harness.requests == [.unlimited])
        harness.send([0, 4])
        harness.subscriber.request(.max(3))
        #expect(harness.requests == [.unlimited])
        harness.upstream.send(completion: .finished)
        #expect(harness.events == ["subscription", "value(4)", "finished"])
    }

    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = TestPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
            upstream.first { _ in true }.subscribe(subscriber)
            subscriber.request(.none)
        }
        let message = "TryFirst: request(_:) was called with max(0); "
            + "a subscriber must request a positive demand"
        #expect(result?.standardErrorText.contains(message) == true)
    }
}
