import Cadence
import Testing

@Suite("Publishers.ContainsWhere")
struct ContainsWhereTests {
    @Test func sharesTheReducingBehaviour() {
        ReducingChecks.all(name: "ContainsWhere", inputs: [1, 2, 3, 4], result: "true", emptyResult: "false") {
            $0.contains { $0 > 2 }
        }
    }

    @Test func answersFalseWithoutAMatch() {
        ReducingChecks.holdsResultUntilRequested(inputs: [1, 2], result: "false") { $0.contains { $0 > 2 } }
        ReducingChecks.deliversAtOnceWhenRequested(inputs: [1, 2], result: "false") { $0.contains { $0 > 2 } }
    }

    @Test func answersEarlyCancellingTheUpstreamAndWaitsForDemand() {
        let calls = ReducingCounter()
        let harness = ReducingHarness(initialDemand: .none) { upstream in
            upstream.contains { calls.increment(); return $0 > 2 }
        }
        harness.send([1, 2, 3])
        #expect(harness.cancelCount == 1)
        #expect(harness.events == ["subscription"])
        harness.force(100)
        harness.force(completion: .finished)
        #expect(calls.value == 3)
        #expect(harness.events == ["subscription"])
        harness.subscriber.request(.max(1))
        #expect(harness.events == ["subscription", "value(true)", "finished"])
        #expect(harness.requests == [.unlimited])
        #expect(harness.cancelCount == 1)
    }

    @Test func requestsUnlimitedWhateverTheDownstreamAsks() {
        let harness = ReducingHarness(initialDemand: .max(1)) { $0.contains { $0 > 5 } }
        #expect(harness.requests == [.unlimited])
        harness.send([1, 2])
        harness.subscriber.request(.max(3))
        #expect(harness.requests == [.unlimited])
        harness.upstream.send(completion: .finished)
        #expect(harness.events == ["subscription", "value(false)", "finished"])
    }

    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = TestPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Bool, TestError>(initialDemand: .none)
            upstream.contains { _ in false }.subscribe(subscriber)
            subscriber.request(.none)
        }
        let message = "ContainsWhere: request(_:) was called with max(0); "
            + "a subscriber must request a positive demand"
        #expect(result?.standardErrorText.contains(message) == true)
    }
}
