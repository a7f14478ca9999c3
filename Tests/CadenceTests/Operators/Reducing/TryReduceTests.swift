import Cadence
import Testing

@Suite("Publishers.TryReduce")
struct TryReduceTests {
    @Test func sharesTheReducingBehaviour() {
        ReducingChecks.all(name: "TryReduce", inputs: [1, 2, 3, 4, 5], result: "120", emptyResult: "1") {
            $0.tryReduce(1, *)
        }
    }

    @Test func accumulatesInOrderFromTheInitialResult() {
        let harness = ReducingHarness(initialDemand: .unlimited) { $0.tryReduce(">") { $0 + String($1) } }
        harness.send([1, 2, 3])
        harness.upstream.send(completion: .finished)
        #expect(harness.events == ["subscription", "value(>123)", "finished"])
    }

    @Test func throwingFailsAtOnceAndCancelsTheUpstream() {
        let calls = ReducingCounter()
        let harness = ReducingHarness(initialDemand: .none) { upstream in
            upstream.tryReduce(0) { (sum: Int, value: Int) throws -> Int in
                calls.increment()
                if value == 3 { throw TestError.oops }
                return sum + value
            }
        }
        harness.send([1, 2, 3])
        #expect(harness.events == ["subscription", "failure(oops)"])
        #expect(harness.subscriber.completions.count == 1)
        #expect(harness.cancelCount == 1)
        harness.force(4)
        harness.force(completion: .finished)
        harness.subscriber.request(.max(1))
        #expect(calls.value == 3)
        #expect(harness.events == ["subscription", "failure(oops)"])
        #expect(harness.requests == [.unlimited])
    }

    @Test func requestsUnlimitedWhateverTheDownstreamAsks() {
        ReducingChecks.requestsUnlimitedWhateverTheDownstreamAsks(
            inputs: [4, 5], laterDemand: .max(2), result: "9"
        ) { $0.tryReduce(0, +) }
    }

    @Test func exposesItsConfiguration() throws {
        let reduce = TaggedPublisher(2).tryReduce(10, +)
        #expect(reduce.initial == 10)
        #expect(reduce.upstream == TaggedPublisher(2))
        #expect(try reduce.nextPartialResult(1, 2) == 3)
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
            upstream.tryReduce(0, +).subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "TryReduce")
    }
    #endif
}
