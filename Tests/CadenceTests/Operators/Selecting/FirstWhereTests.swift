import Cadence
import Testing

@Suite("Publishers.FirstWhere")
struct FirstWhereTests {
    @Test func sharesTheReducingBehaviour() {
        ReducingChecks.all(name: "TryFirst", inputs: [0, 1, 2, 3], result: "2", emptyResult: nil) {
            $0.first { $0 > 1 }
        }
    }

    @Test func finishesEmptyWithoutAMatch() {
        ReducingChecks.holdsResultUntilRequested(inputs: [0, 1], result: nil) { $0.first { $0 > 1 } }
    }

    @Test func describesItselfAsTryFirstLikeCombine() {
        let harness = ReducingHarness(initialDemand: .none) { $0.first { $0 > 1 } }
        #expect(harness.subscriber.subscription.map { "\($0)" } == "TryFirst")
    }

    @Test func answersEarlyCancellingTheUpstreamAndWaitsForDemand() {
        ReducingChecks.answersEarlyCancellingTheUpstreamAndWaitsForDemand(
            inputs: [0, 1, 2], result: "2", predicate: { $0 > 1 }
        ) { $0.first(where: $1) }
    }

    @Test func requestsUnlimitedWhateverTheDownstreamAsks() {
        ReducingChecks.requestsUnlimitedWhateverTheDownstreamAsks(
            inputs: [0, 4], laterDemand: .max(3), result: "4"
        ) { $0.first { $0 > 1 } }
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
            upstream.first { _ in true }.subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "TryFirst")
    }
    #endif
}
