import Cadence
import Testing

@Suite("Publishers.Reduce")
struct ReduceTests {
    @Test func sharesTheReducingBehaviour() {
        ReducingChecks.all(name: "Reduce", inputs: [1, 2, 3, 4, 5], result: "120", emptyResult: "1") {
            $0.reduce(1, *)
        }
    }

    @Test func accumulatesInOrderFromTheInitialResult() {
        let harness = ReducingHarness(initialDemand: .unlimited) { $0.reduce(">") { $0 + String($1) } }
        harness.send([1, 2, 3])
        #expect(harness.events == ["subscription"])
        harness.upstream.send(completion: .finished)
        #expect(harness.events == ["subscription", "value(>123)", "finished"])
    }

    @Test func requestsUnlimitedWhateverTheDownstreamAsks() {
        let harness = ReducingChecks.requestsUnlimitedWhateverTheDownstreamAsks(
            inputs: [1, 2, 3], laterDemand: .max(5), result: "6"
        ) { $0.reduce(0, +) }
        #expect(harness.subscriber.values == [6])
        #expect(harness.cancelCount == 0)
    }

    @Test func stopsCallingTheClosureWhenCancelled() {
        let calls = ReducingCounter()
        let harness = ReducingHarness(initialDemand: .max(1)) { upstream in
            upstream.reduce(0) {
                calls.increment()
                return $0 + $1
            }
        }
        harness.send([1, 2])
        harness.subscriber.cancel()
        harness.force(3)
        harness.force(completion: .finished)
        #expect(calls.value == 2)
        #expect(harness.events == ["subscription"])
        #expect(harness.cancelCount == 1)
    }

    @Test func exposesItsConfiguration() {
        let reduce = TaggedPublisher(2).reduce(10, +)
        #expect(reduce.initial == 10)
        #expect(reduce.upstream == TaggedPublisher(2))
        #expect(reduce.nextPartialResult(1, 2) == 3)
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
            upstream.reduce(0, +).subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "Reduce")
    }
    #endif
}
