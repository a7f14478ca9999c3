import Cadence
import Testing

@Suite("Publishers.Comparison")
struct ComparisonTests {
    @Test func maxSharesTheReducingBehaviour() {
        ReducingChecks.all(name: "Comparison", inputs: [3, 1, 4, 1, 5, 9, 2, 6], result: "9", emptyResult: nil) {
            $0.max()
        }
    }

    @Test func minSharesTheReducingBehaviour() {
        ReducingChecks.all(name: "Comparison", inputs: [3, 1, 4, 1, 5, 9, 2, 6], result: "1", emptyResult: nil) {
            $0.min()
        }
    }

    @Test func byClosureKeepsTheFirstOfEqualElements() {
        ReducingChecks.keepsTheFirstOfEqualElements(max: { $0.max(by: $1) }, min: { $0.min(by: $1) })
    }

    @Test func minAndMaxByClosureShareTheReducingBehaviour() {
        ReducingChecks.all(name: "Comparison", inputs: [2, 7, 5], result: "2", emptyResult: nil) {
            $0.max(by: >)
        }
        ReducingChecks.all(name: "Comparison", inputs: [2, 7, 5], result: "7", emptyResult: nil) {
            $0.min(by: >)
        }
    }

    @Test func requestsUnlimitedWhateverTheDownstreamAsks() {
        ReducingChecks.requestsUnlimitedWhateverTheDownstreamAsks(
            inputs: [1, 3, 2], laterDemand: .max(2), result: "3"
        ) { $0.max() }
    }

    @Test func exposesItsOrdering() {
        #expect(TaggedPublisher(1).max().areInIncreasingOrder(1, 2))
        #expect(!TaggedPublisher(1).min().areInIncreasingOrder(1, 2))
        #expect(TaggedPublisher(1).max().upstream == TaggedPublisher(1))
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
            upstream.max().subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "Comparison")
    }
    #endif
}
