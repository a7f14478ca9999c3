import Cadence
import Testing

@Suite("Publishers.Collect")
struct CollectTests {
    @Test func sharesTheReducingBehaviour() {
        ReducingChecks.all(
            name: "Collect", inputs: [1, 2, 3], result: "[1, 2, 3]", emptyResult: "[]", mirrorLabels: ["count"]
        ) {
            $0.collect()
        }
    }

    @Test func collectsEveryValueInOrder() {
        let harness = ReducingHarness(initialDemand: .max(1)) { $0.collect() }
        let values = Array(0..<1_000)
        harness.send(values)
        #expect(harness.subscriber.values.isEmpty)
        harness.upstream.send(completion: .finished)
        #expect(harness.subscriber.values == [values])
        #expect(harness.subscriber.completions.count == 1)
    }

    @Test func requestsUnlimitedWhateverTheDownstreamAsks() {
        ReducingChecks.requestsUnlimitedWhateverTheDownstreamAsks(
            inputs: [7, 8], laterDemand: .max(3), result: "[7, 8]"
        ) { $0.collect() }
    }

    @Test func dropsTheCollectedValuesOnFailure() {
        let harness = ReducingHarness(initialDemand: .unlimited) { $0.collect() }
        harness.send([1, 2])
        harness.upstream.send(completion: .failure(.oops))
        #expect(harness.events == ["subscription", "failure(oops)"])
    }

    @Test func isEquatableWhenItsUpstreamIs() {
        #expect(TaggedPublisher(1).collect() == TaggedPublisher(1).collect())
        #expect(TaggedPublisher(1).collect() != TaggedPublisher(2).collect())
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>()
            let subscriber = TestSubscriber<[Int], TestError>(initialDemand: .none)
            upstream.collect().subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "Collect")
    }
    #endif
}
