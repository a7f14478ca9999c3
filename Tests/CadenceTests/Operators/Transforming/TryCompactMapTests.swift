import Cadence
import Testing

@Suite("Publishers.TryCompactMap")
struct TryCompactMapTests {
    private static func parse(_ text: String) throws -> Int? {
        if text == "boom" { throw TestError.other }
        return Int(text)
    }

    @Test func republishesNonNilResultsThenFinishes() {
        let (upstream, subscriber) = makeTransformPipeline(String.self, TestError.self) {
            $0.tryCompactMap(Self.parse)
        }
        upstream.send("1")
        upstream.send("x")
        upstream.send("3")
        upstream.send(completion: .finished)
        #expect(subscriber.transformEventLog == ["subscription", "value(1)", "value(3)", "finished"])
    }

    @Test func passesTheUpstreamFailureThrough() {
        let (upstream, subscriber) = makeTransformPipeline(String.self, TestError.self) {
            $0.tryCompactMap(Self.parse)
        }
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.completions.first.flatMap(TestError.init(failureOf:)) == .oops)
    }

    @Test func thrownErrorFailsDownstreamCancelsUpstreamAndNothingFollows() {
        let (upstream, subscriber) = makeTransformPipeline(String.self, TestError.self) {
            $0.tryCompactMap(Self.parse)
        }
        upstream.send("1")
        #expect(upstream.send("boom") == .none)
        #expect(upstream.subscription.cancelCount == 1)
        #expect(upstream.subscription.downstream.receive("2") == .none)
        upstream.subscription.downstream.receive(completion: .finished)
        #expect(subscriber.transformEventLog == ["subscription", "value(1)", "failure(other)"])
    }

    @Test func nilResultAsksUpstreamForOneMore() {
        let (upstream, subscriber) = makeTransformPipeline(
            String.self, TestError.self, initialDemand: .max(1)
        ) { $0.tryCompactMap(Self.parse) }
        #expect(upstream.subscription.requests == [.max(1)])
        #expect(upstream.send("x") == .max(1))
        #expect(upstream.send("2") == .none)
        subscriber.request(.max(2))
        #expect(upstream.subscription.requests == [.max(1), .max(2)])
        #expect(upstream.subscription.answered == [.max(1), .none])
        #expect(subscriber.values == [2])
    }

    @Test func cancelReachesUpstreamOnceAndNothingFollows() {
        let (upstream, subscriber) = makeTransformPipeline(String.self, TestError.self) {
            $0.tryCompactMap(Self.parse)
        }
        subscriber.cancel()
        subscriber.cancel()
        #expect(upstream.subscription.downstream.receive("1") == .none)
        #expect(upstream.subscription.cancelCount == 1)
        #expect(subscriber.transformEventLog == ["subscription"])
    }

    @Test func fusedCompactMapsStayOneTryCompactMap() {
        let (upstream, subscriber) = makeTransformPipeline(String.self, TestError.self) { publisher in
            let fused: Publishers.TryCompactMap<DrivenPublisher<String, TestError>, Int> =
                publisher.tryCompactMap(Self.parse).compactMap { value in
                    if value == 0 { throw TestError.oops }
                    return value > 0 ? value * 2 : nil
                }
            return fused
        }
        for text in ["1", "-1", "x", "4", "0", "5"] { upstream.send(text) }
        #expect(subscriber.transformEventLog == ["subscription", "value(2)", "value(8)", "failure(oops)"])
    }

    @Test func describesItselfAsTryCompactMap() throws {
        let (_, subscriber) = makeTransformPipeline(String.self, TestError.self) { $0.tryCompactMap(Self.parse) }
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "TryCompactMap")
        #expect(
            (subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "TryCompactMap")
        #expect(subscriber.transformSubscriptionMirror?.children.map(\.label) == ["downstream"])
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoDemandTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (_, subscriber) = makeTransformPipeline(String.self, TestError.self, initialDemand: .none) {
                $0.tryCompactMap { Int($0) }
            }
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "TryCompactMap")
    }
    #endif
}
