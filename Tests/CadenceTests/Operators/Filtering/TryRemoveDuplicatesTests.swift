import Cadence
import Testing

@Suite("Publishers.TryRemoveDuplicates")
struct TryRemoveDuplicatesTests {
    private static func sameUnlessZero(_ previous: Int, _ next: Int) throws -> Bool {
        if next == 0 { throw TestError.other }
        return previous == next
    }

    @Test func dropsConsecutiveDuplicatesThenFinishes() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) {
            $0.tryRemoveDuplicates(by: Self.sameUnlessZero)
        }
        for value in [1, 1, 2, 2, 1] { upstream.send(value) }
        upstream.send(completion: .finished)
        #expect(subscriber.transformEventLog == ["subscription", "value(1)", "value(2)", "value(1)", "finished"])
    }

    @Test func passesTheUpstreamFailureThrough() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) {
            $0.tryRemoveDuplicates(by: Self.sameUnlessZero)
        }
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.completions.first.flatMap(TestError.init(failureOf:)) == .oops)
    }

    @Test func thrownErrorFailsDownstreamCancelsUpstreamAndNothingFollows() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) {
            $0.tryRemoveDuplicates(by: Self.sameUnlessZero)
        }
        upstream.send(1)
        #expect(upstream.send(0) == .none)
        #expect(upstream.subscription.cancelCount == 1)
        #expect(upstream.subscription.downstream.receive(2) == .none)
        upstream.subscription.downstream.receive(completion: .finished)
        #expect(subscriber.transformEventLog == ["subscription", "value(1)", "failure(other)"])
    }

    @Test func theFirstElementIsNeverCompared() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) {
            $0.tryRemoveDuplicates(by: Self.sameUnlessZero)
        }
        upstream.send(0)
        #expect(subscriber.transformEventLog == ["subscription", "value(0)"])
    }

    @Test func duplicateAsksUpstreamForOneMore() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self, initialDemand: .max(1)) {
            $0.tryRemoveDuplicates(by: Self.sameUnlessZero)
        }
        #expect(upstream.subscription.requests == [.max(1)])
        #expect(upstream.send(1) == .none)
        subscriber.request(.max(2))
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(3) == .none)
        #expect(upstream.subscription.requests == [.max(1), .max(2)])
        #expect(upstream.subscription.answered == [.none, .max(1), .none])
        #expect(subscriber.values == [1, 3])
    }

    @Test func cancelReachesUpstreamOnceAndNothingFollows() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) {
            $0.tryRemoveDuplicates(by: Self.sameUnlessZero)
        }
        subscriber.cancel()
        subscriber.cancel()
        #expect(upstream.subscription.downstream.receive(2) == .none)
        #expect(upstream.subscription.cancelCount == 1)
        #expect(subscriber.transformEventLog == ["subscription"])
    }

    @Test func describesItselfAsTryRemoveDuplicates() throws {
        let (_, subscriber) = makeTransformPipeline(Int.self, TestError.self) {
            $0.tryRemoveDuplicates(by: Self.sameUnlessZero)
        }
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "TryRemoveDuplicates")
        #expect(
            (subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "TryRemoveDuplicates")
        #expect(subscriber.transformSubscriptionMirror?.children.map(\.label) == ["downstream", "last"])
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoDemandTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (_, subscriber) = makeTransformPipeline(Int.self, TestError.self, initialDemand: .none) {
                $0.tryRemoveDuplicates { $0 == $1 }
            }
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "TryRemoveDuplicates")
    }
    #endif
}
