import Cadence
import Testing

@Suite("Publishers.Contains")
struct ContainsTests {
    @Test func sharesTheReducingBehaviour() {
        ReducingChecks.all(name: "Contains", inputs: [1, 2, 3, 4], result: "true", emptyResult: "false") {
            $0.contains(3)
        }
    }

    @Test func answersFalseWithoutAMatch() {
        ReducingChecks.holdsResultUntilRequested(inputs: [1, 2, 4], result: "false") { $0.contains(3) }
        ReducingChecks.deliversAtOnceWhenRequested(inputs: [1, 2, 4], result: "false") { $0.contains(3) }
    }

    @Test func answersEarlyCancellingTheUpstreamAndWaitsForDemand() {
        ReducingChecks.answersEarlyCancellingTheUpstreamAndWaitsForDemand(
            inputs: [1, 2, 3], lateValue: 4, result: "true"
        ) { $0.contains(3) }
    }

    @Test func requestsUnlimitedWhateverTheDownstreamAsks() {
        ReducingChecks.requestsUnlimitedWhateverTheDownstreamAsks(
            inputs: [1, 2], laterDemand: .max(3), result: "false"
        ) { $0.contains(9) }
    }

    @Test func isEquatableWhenItsUpstreamIs() {
        #expect(TaggedPublisher(1).contains(1) == TaggedPublisher(1).contains(1))
        #expect(TaggedPublisher(1).contains(1) != TaggedPublisher(2).contains(1))
        #expect(TaggedPublisher(1).contains(1).output == 1)
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Bool, TestError>(initialDemand: .none)
            upstream.contains(1).subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "Contains")
    }
    #endif
}
