import Cadence
import Testing

@Suite("Publishers.First")
struct FirstTests {
    @Test func sharesTheReducingBehaviour() {
        ReducingChecks.all(name: "First", inputs: [5, 6, 7], result: "5", emptyResult: nil) {
            $0.first()
        }
    }

    @Test func answersAtTheFirstValueCancellingTheUpstreamAndWaitsForDemand() {
        ReducingChecks.answersEarlyCancellingTheUpstreamAndWaitsForDemand(
            inputs: [5], lateValue: 6, result: "5"
        ) { $0.first() }
    }

    @Test func requestsUnlimitedWhateverTheDownstreamAsks() {
        let harness = ReducingHarness(initialDemand: .max(1)) { $0.first() }
        #expect(harness.requests == [.unlimited])
        harness.subscriber.request(.max(3))
        #expect(harness.requests == [.unlimited])
        harness.send([8])
        #expect(harness.events == ["subscription", "value(8)", "finished"])
        #expect(harness.cancelCount == 1)
    }

    @Test func isEquatableWhenItsUpstreamIs() {
        #expect(TaggedPublisher(1).first() == TaggedPublisher(1).first())
        #expect(TaggedPublisher(1).first() != TaggedPublisher(2).first())
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
            upstream.first().subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "First")
    }
    #endif
}
