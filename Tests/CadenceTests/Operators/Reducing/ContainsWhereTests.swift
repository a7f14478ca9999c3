import Cadence
import Testing

@Suite("Publishers.ContainsWhere")
struct ContainsWhereTests {
    @Test func sharesTheReducingBehaviour() {
        ReducingChecks.all(name: "ContainsWhere", inputs: [1, 2, 3, 4], result: "true", emptyResult: "false") {
            $0.contains { $0 > 2 }
        }
    }

    @Test func answersFalseWithoutAMatch() {
        ReducingChecks.holdsResultUntilRequested(inputs: [1, 2], result: "false") { $0.contains { $0 > 2 } }
        ReducingChecks.deliversAtOnceWhenRequested(inputs: [1, 2], result: "false") { $0.contains { $0 > 2 } }
    }

    @Test func answersEarlyCancellingTheUpstreamAndWaitsForDemand() {
        ReducingChecks.answersEarlyCancellingTheUpstreamAndWaitsForDemand(
            inputs: [1, 2, 3], result: "true", predicate: { $0 > 2 }
        ) { $0.contains(where: $1) }
    }

    @Test func requestsUnlimitedWhateverTheDownstreamAsks() {
        ReducingChecks.requestsUnlimitedWhateverTheDownstreamAsks(
            inputs: [1, 2], laterDemand: .max(3), result: "false"
        ) { $0.contains { $0 > 5 } }
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Bool, TestError>(initialDemand: .none)
            upstream.contains { _ in false }.subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "ContainsWhere")
    }
    #endif
}
