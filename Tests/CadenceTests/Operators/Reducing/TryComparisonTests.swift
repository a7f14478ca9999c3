import Cadence
import Testing

@Suite("Publishers.TryComparison")
struct TryComparisonTests {
    @Test func tryMaxSharesTheReducingBehaviour() {
        ReducingChecks.all(name: "TryComparison", inputs: [3, 1, 4, 1, 5, 9, 2, 6], result: "9", emptyResult: nil) {
            $0.tryMax(by: <)
        }
    }

    @Test func tryMinSharesTheReducingBehaviour() {
        ReducingChecks.all(name: "TryComparison", inputs: [3, 1, 4, 1, 5, 9, 2, 6], result: "1", emptyResult: nil) {
            $0.tryMin(by: <)
        }
    }

    @Test func keepsTheFirstOfEqualElements() {
        ReducingChecks.keepsTheFirstOfEqualElements(max: { $0.tryMax(by: $1) }, min: { $0.tryMin(by: $1) })
    }

    @Test func throwingFailsAtOnceAndCancelsTheUpstream() {
        let calls = ReducingCounter()
        let harness = ReducingHarness(initialDemand: .none) { upstream in
            upstream.tryMax { (lhs: Int, rhs: Int) throws -> Bool in
                calls.increment()
                if rhs == 0 { throw TestError.oops }
                return lhs < rhs
            }
        }
        harness.send([5, 6, 0])
        #expect(harness.events == ["subscription", "failure(oops)"])
        #expect(harness.cancelCount == 1)
        harness.force(7)
        harness.force(completion: .finished)
        harness.subscriber.request(.max(1))
        #expect(calls.value == 2)
        #expect(harness.events == ["subscription", "failure(oops)"])
    }

    @Test func requestsUnlimitedWhateverTheDownstreamAsks() {
        ReducingChecks.requestsUnlimitedWhateverTheDownstreamAsks(
            inputs: [4, 3, 8], laterDemand: .max(2), result: "3"
        ) { $0.tryMin(by: <) }
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
            upstream.tryMax(by: <).subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "TryComparison")
    }
    #endif
}
