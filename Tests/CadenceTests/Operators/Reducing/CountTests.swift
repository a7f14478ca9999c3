import Cadence
import Testing

@Suite("Publishers.Count")
struct CountTests {
    @Test func sharesTheReducingBehaviour() {
        ReducingChecks.all(name: "Count", inputs: [4, 4, 4, 4, 4], result: "5", emptyResult: "0") {
            $0.count()
        }
    }

    @Test func requestsUnlimitedWhateverTheDownstreamAsks() {
        ReducingChecks.requestsUnlimitedWhateverTheDownstreamAsks(
            inputs: [1, 2, 3], laterDemand: .max(1), result: "3"
        ) { $0.count() }
    }

    @Test func isEquatableWhenItsUpstreamIs() {
        #expect(TaggedPublisher(1).count() == TaggedPublisher(1).count())
        #expect(TaggedPublisher(1).count() != TaggedPublisher(2).count())
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
            upstream.count().subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "Count")
    }
    #endif
}
