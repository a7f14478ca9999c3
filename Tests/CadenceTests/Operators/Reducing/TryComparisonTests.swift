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
        let maximum = ReducingHarness(initialDemand: .unlimited) { $0.tryMax { $0 / 10 < $1 / 10 } }
        maximum.send([11, 25, 21, 29, 3])
        maximum.upstream.send(completion: .finished)
        #expect(maximum.events == ["subscription", "value(25)", "finished"])

        let minimum = ReducingHarness(initialDemand: .unlimited) { $0.tryMin { $0 / 10 < $1 / 10 } }
        minimum.send([25, 11, 15, 31, 12])
        minimum.upstream.send(completion: .finished)
        #expect(minimum.events == ["subscription", "value(11)", "finished"])
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

    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = TestPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
            upstream.tryMax(by: <).subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "TryComparison")
    }
}
