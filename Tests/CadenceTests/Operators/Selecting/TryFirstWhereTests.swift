import Cadence
import Testing

@Suite("Publishers.TryFirstWhere")
struct TryFirstWhereTests {
    @Test func sharesTheReducingBehaviour() {
        ReducingChecks.all(name: "TryFirstWhere", inputs: [0, 1, 2, 3], result: "2", emptyResult: nil) {
            $0.tryFirst { $0 > 1 }
        }
    }

    @Test func finishesEmptyWithoutAMatch() {
        ReducingChecks.holdsResultUntilRequested(inputs: [0, 1], result: nil) { $0.tryFirst { $0 > 1 } }
    }

    @Test func answersEarlyCancellingTheUpstreamAndWaitsForDemand() {
        let calls = ReducingCounter()
        let harness = ReducingHarness(initialDemand: .none) { upstream in
            upstream.tryFirst { calls.increment(); return $0 > 1 }
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

    @Test func throwingFailsAtOnceAndCancelsTheUpstream() {
        let calls = ReducingCounter()
        let harness = ReducingHarness(initialDemand: .none) { upstream in
            upstream.tryFirst { (value: Int) throws -> Bool in
                calls.increment()
                if value == 0 { throw TestError.oops }
                return value > 5
            }
        }
        harness.send([1, 0])
        #expect(harness.events == ["subscription", "failure(oops)"])
        #expect(harness.cancelCount == 1)
        harness.force(2)
        harness.force(completion: .finished)
        harness.subscriber.request(.max(1))
        #expect(calls.value == 2)
        #expect(harness.events == ["subscription", "failure(oops)"])
        #expect(harness.cancelCount == 1)
    }

    @Test func requestsUnlimitedWhateverTheDownstreamAsks() {
        let harness = ReducingHarness(initialDemand: .max(1)) { $0.tryFirst { $0 > 1 } }
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
            let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
            upstream.tryFirst { _ in true }.subscribe(subscriber)
            subscriber.request(.none)
        }
        let message = "TryFirstWhere: request(_:) was called with max(0); "
            + "a subscriber must request a positive demand"
        #expect(result?.standardErrorText.contains(message) == true)
    }
}
