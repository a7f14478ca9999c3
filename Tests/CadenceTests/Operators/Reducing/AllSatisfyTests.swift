import Cadence
import Testing

@Suite("Publishers.AllSatisfy")
struct AllSatisfyTests {
    @Test func sharesTheReducingBehaviour() {
        ReducingChecks.all(name: "AllSatisfy", inputs: [1, 2, 3], result: "true", emptyResult: "true") {
            $0.allSatisfy { $0 > 0 }
        }
    }

    @Test func answersFalseAtTheFirstFailingElement() {
        ReducingChecks.holdsResultUntilRequested(inputs: [1, 2, -1], result: "false") { $0.allSatisfy { $0 > 0 } }
        ReducingChecks.deliversAtOnceWhenRequested(inputs: [1, -1], result: "false") { $0.allSatisfy { $0 > 0 } }
    }

    @Test func answersEarlyCancellingTheUpstreamAndWaitsForDemand() {
        let calls = ReducingCounter()
        let harness = ReducingHarness(initialDemand: .none) { upstream in
            upstream.allSatisfy { calls.increment(); return $0 < 3 }
        }
        harness.send([1, 2, 3])
        #expect(harness.cancelCount == 1)
        #expect(harness.events == ["subscription"])
        harness.force(100)
        harness.force(completion: .finished)
        #expect(calls.value == 3)
        #expect(harness.events == ["subscription"])
        harness.subscriber.request(.max(1))
        #expect(harness.events == ["subscription", "value(false)", "finished"])
        #expect(harness.requests == [.unlimited])
        #expect(harness.cancelCount == 1)
    }

    @Test func requestsUnlimitedWhateverTheDownstreamAsks() {
        let harness = ReducingHarness(initialDemand: .max(1)) { $0.allSatisfy { $0 < 5 } }
        #expect(harness.requests == [.unlimited])
        harness.send([1, 2])
        harness.subscriber.request(.max(3))
        #expect(harness.requests == [.unlimited])
        harness.upstream.send(completion: .finished)
        #expect(harness.events == ["subscription", "value(true)", "finished"])
    }

    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = TestPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Bool, TestError>(initialDemand: .none)
            upstream.allSatisfy { _ in true }.subscribe(subscriber)
            subscriber.request(.none)
        }
        let message = "AllSatisfy: request(_:) was called with max(0); "
            + "a subscriber must request a positive demand"
        #expect(result?.standardErrorText.contains(message) == true)
    }
}
