import Cadence
import Testing

@Suite("Publishers.TryFirstWhere")
struct TryFirstWhereTests {
    @Test func sharesTheReducingBehaviour() {
        ReducingChecks.all(name: "TryFirstWhere", inputs: [0, 1, 2, 3], result: "2", emptyResult: nil) {
            $0.tryFirst { $0 > 1 }
        }
    }

    @Test func finishesEmptyWithoutAMatch() {
        ReducingChecks.holdsResultUntilRequested(inputs: [0, 1], result: nil) { $0.tryFirst { $0 > 1 } }
    }

    @Test func answersEarlyCancellingTheUpstreamAndWaitsForDemand() {
        ReducingChecks.answersEarlyCancellingTheUpstreamAndWaitsForDemand(
            inputs: [0, 1, 2], result: "2", predicate: { $0 > 1 }
        ) { $0.tryFirst(where: $1) }
    }

    @Test func throwingFailsAtOnceAndCancelsTheUpstream() {
        ReducingChecks.throwingPredicateFailsAtOnceAndCancelsTheUpstream(answer: { $0 > 5 }) {
            $0.tryFirst(where: $1)
        }
    }

    @Test func requestsUnlimitedWhateverTheDownstreamAsks() {
        ReducingChecks.requestsUnlimitedWhateverTheDownstreamAsks(
            inputs: [0, 4], laterDemand: .max(3), result: "4"
        ) { $0.tryFirst { $0 > 1 } }
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
            upstream.tryFirst { _ in true }.subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "TryFirstWhere")
    }
    #endif
}
