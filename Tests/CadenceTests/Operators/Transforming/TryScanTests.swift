import Cadence
import Testing

@Suite("Publishers.TryScan")
struct TryScanTests {
    private static func sumRejectingNegatives(_ sum: Int, _ value: Int) throws -> Int {
        if value < 0 { throw TestError.other }
        return sum + value
    }

    @Test func publishesEachRunningResultThenFinishes() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) {
            $0.tryScan(10, Self.sumRejectingNegatives)
        }
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.transformEventLog == ["subscription", "value(11)", "value(13)", "finished"])
    }

    @Test func passesTheUpstreamFailureThrough() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) {
            $0.tryScan(0, Self.sumRejectingNegatives)
        }
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.completions.first.flatMap(TestError.init(failureOf:)) == .oops)
        #expect(subscriber.transformEventLog == ["subscription", "failure(oops)"])
    }

    /// As Combine's `tryScan` does, values a misbehaving upstream still sends after the end go through.
    @Test func thrownErrorFailsDownstreamAndCancelsUpstream() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) {
            $0.tryScan(0, Self.sumRejectingNegatives)
        }
        upstream.send(4)
        #expect(upstream.send(-1) == .none)
        #expect(upstream.subscription.cancelCount == 1)
        #expect(upstream.subscription.downstream.receive(5) == .none)
        upstream.subscription.downstream.receive(completion: .finished)
        #expect(subscriber.transformEventLog == ["subscription", "value(4)", "failure(other)", "value(9)"])
    }

    @Test func passesDemandThroughAndAnswersWithTheDownstreamsDemand() {
        let (upstream, subscriber) = makeTransformPipeline(
            Int.self, TestError.self, initialDemand: .max(1), onValue: { $0 == 1 ? .max(1) : .none }
        ) { $0.tryScan(0, Self.sumRejectingNegatives) }
        #expect(upstream.subscription.requests == [.max(1)])
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(1) == .none)
        subscriber.request(.max(2))
        #expect(upstream.subscription.requests == [.max(1), .max(2)])
        #expect(upstream.subscription.answered == [.max(1), .none])
        #expect(subscriber.values == [1, 2])
    }

    @Test func cancelReachesUpstreamOnceAndLaterValuesStillGoThroughAsInCombine() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) {
            $0.tryScan(0, Self.sumRejectingNegatives)
        }
        upstream.send(1)
        subscriber.cancel()
        subscriber.cancel()
        #expect(upstream.subscription.downstream.receive(2) == .none)
        #expect(upstream.subscription.cancelCount == 1)
        #expect(subscriber.transformEventLog == ["subscription", "value(1)", "value(3)"])
    }

    @Test func describesItselfAsTryScan() throws {
        let (_, subscriber) = makeTransformPipeline(Int.self, TestError.self) {
            $0.tryScan(0, Self.sumRejectingNegatives)
        }
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "TryScan")
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "TryScan")
        #expect(subscriber.transformSubscriptionMirror?.children.map(\.label) == ["downstream", "status", "result"])
    }

    /// As Combine's `tryScan` does, a zero demand goes to the upstream as it is.
    @Test func aZeroDemandIsPassedOn() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self, initialDemand: .none) {
            $0.tryScan(0, Self.sumRejectingNegatives)
        }
        subscriber.request(.none)
        #expect(upstream.subscription.requests == [.none])
    }
}
