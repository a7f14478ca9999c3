import Cadence
import Testing

@Suite("Publishers.TryLastWhere")
struct TryLastWhereTests {
    @Test func sharesTheReducingBehaviour() {
        ReducingChecks.all(name: "TryLastWhere", inputs: [1, 2, 3, 4], result: "2", emptyResult: nil) {
            $0.tryLast { $0 < 3 }
        }
    }

    @Test func finishesEmptyWithoutAMatch() {
        ReducingChecks.holdsResultUntilRequested(inputs: [5, 6], result: nil) { $0.tryLast { $0 < 3 } }
    }

    @Test func throwingFailsAtOnceAndCancelsTheUpstream() {
        ReducingChecks.throwingPredicateFailsAtOnceAndCancelsTheUpstream(answer: { _ in true }) {
            $0.tryLast(where: $1)
        }
    }

    @Test func requestsUnlimitedWhateverTheDownstreamAsks() {
        ReducingChecks.requestsUnlimitedWhateverTheDownstreamAsks(
            inputs: [1, 2, 3], laterDemand: .max(3), result: "2"
        ) { $0.tryLast { $0 < 3 } }
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
            upstream.tryLast { _ in true }.subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "TryLastWhere")
    }
    #endif
}
