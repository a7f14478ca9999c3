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
        ReducingChecks.answersEarlyCancellingTheUpstreamAndWaitsForDemand(
            inputs: [1, 2, 3], result: "false", predicate: { $0 < 3 }
        ) { $0.allSatisfy($1) }
    }

    @Test func requestsUnlimitedWhateverTheDownstreamAsks() {
        ReducingChecks.requestsUnlimitedWhateverTheDownstreamAsks(
            inputs: [1, 2], laterDemand: .max(3), result: "true"
        ) { $0.allSatisfy { $0 < 5 } }
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Bool, TestError>(initialDemand: .none)
            upstream.allSatisfy { _ in true }.subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "AllSatisfy")
    }
    #endif
}
