import Cadence
import Testing

@Suite("Publishers.Last")
struct LastTests {
    @Test func sharesTheReducingBehaviour() {
        ReducingChecks.all(name: "Last", inputs: [1, 2, 3], result: "3", emptyResult: nil) {
            $0.last()
        }
    }

    @Test func requestsUnlimitedWhateverTheDownstreamAsks() {
        ReducingChecks.requestsUnlimitedWhateverTheDownstreamAsks(
            inputs: [4, 5], laterDemand: .max(3), result: "5"
        ) { $0.last() }
    }

    @Test func isEquatableWhenItsUpstreamIs() {
        #expect(TaggedPublisher(1).last() == TaggedPublisher(1).last())
        #expect(TaggedPublisher(1).last() != TaggedPublisher(2).last())
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
            upstream.last().subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "Last")
    }
    #endif
}
