import Cadence
import Testing

@Suite("Publishers.LastWhere")
struct LastWhereTests {
    @Test func sharesTheReducingBehaviour() {
        ReducingChecks.all(name: "LastWhere", inputs: [1, 2, 3, 4], result: "2", emptyResult: nil) {
            $0.last { $0 < 3 }
        }
    }

    @Test func finishesEmptyWithoutAMatch() {
        ReducingChecks.holdsResultUntilRequested(inputs: [5, 6], result: nil) { $0.last { $0 < 3 } }
    }

    @Test func asksThePredicateAboutEveryValue() {
        let calls = ReducingCounter()
        let harness = ReducingHarness(initialDemand: .max(1)) { upstream in
            upstream.last {
                calls.increment()
                return $0.isMultiple(of: 2)
            }
        }
        harness.send([1, 2, 3, 4, 5])
        harness.upstream.send(completion: .finished)
        #expect(calls.value == 5)
        #expect(harness.events == ["subscription", "value(4)", "finished"])
        #expect(harness.cancelCount == 0)
    }

    @Test func requestsUnlimitedWhateverTheDownstreamAsks() {
        ReducingChecks.requestsUnlimitedWhateverTheDownstreamAsks(
            inputs: [1, 2, 3], laterDemand: .max(3), result: "2"
        ) { $0.last { $0 < 3 } }
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
            upstream.last { _ in true }.subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "LastWhere")
    }
    #endif
}
