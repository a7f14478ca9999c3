import Cadence
import Testing

@Suite("Publishers.TryLastWhere")
struct TryLastWhereTests {
    @Test func sharesTheReducingBehaviour() {
        ReducingChecks.all(name: "TryLastWhere", inputs: [1, 2, 3, 4], result: "2", emptyResult: nil) {
            $0.tryLast { $0 < 3 }
        }
    }

    @Test func finishesEmptyWithoutAMatch() {
        ReducingChecks.holdsResultUntilRequested(inputs: [5, 6], result: nil) { $0.tryLast { $0 < 3 } }
    }

    @Test func throwingFailsAtOnceAndCancelsTheUpstream() {
        let calls = ReducingCounter()
        let harness = ReducingHarness(initialDemand: .none) { upstream in
            upstream.tryLast { (value: Int) throws -> Bool in
                calls.increment()
                if value == 0 { throw TestError.oops }
                return true
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
        let harness = ReducingHarness(initialDemand: .max(1)) { $0.tryLast { $0 < 3 } }
        #expect(harness.requests == [.unlimited])
        harness.send([1, 2, 3])
        harness.subscriber.request(.max(3))
        #expect(harness.requests == [.unlimited])
        harness.upstream.send(completion: .finished)
        #expect(harness.events == ["subscription", "value(2)", "finished"])
    }

    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = TestPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
            upstream.tryLast { _ in true }.subscribe(subscriber)
            subscriber.request(.none)
        }
        let message = "TryLastWhere: request(_:) was called with max(0); "
            + "a subscriber must request a positive demand"
        #expect(result?.standardErrorText.contains(message) == true)
    }
}
