import Cadence
import Testing

@Suite("Publishers.CompactMap")
struct CompactMapTests {
    @Test func republishesNonNilResultsThenFinishes() {
        let (upstream, subscriber) = makeTransformPipeline(String.self, TestError.self) { $0.compactMap { Int($0) } }
        upstream.send("1")
        upstream.send("x")
        upstream.send("3")
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(3), .completion(.finished)])
    }

    @Test func passesTheUpstreamFailureThrough() {
        let (upstream, subscriber) = makeTransformPipeline(String.self, TestError.self) { $0.compactMap { Int($0) } }
        upstream.send("7")
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value(7), .completion(.failure(.oops))])
    }

    @Test func nilResultAsksUpstreamForOneMore() {
        let (upstream, subscriber) = makeTransformPipeline(
            String.self, TestError.self, initialDemand: .max(1)
        ) { $0.compactMap { Int($0) } }
        #expect(upstream.subscription.requests == [.max(1)])
        #expect(upstream.send("x") == .max(1))
        #expect(upstream.send("2") == .none)
        subscriber.request(.max(4))
        #expect(upstream.subscription.requests == [.max(1), .max(4)])
        #expect(upstream.subscription.answered == [.max(1), .none])
        #expect(subscriber.values == [2])
    }

    @Test func deliveredValueAnswersWithTheDownstreamsDemand() {
        let (upstream, _) = makeTransformPipeline(
            String.self, TestError.self, initialDemand: .max(1), onValue: { _ in .max(2) }
        ) { $0.compactMap { Int($0) } }
        #expect(upstream.send("5") == .max(2))
    }

    @Test func cancelReachesUpstreamAndNothingFollows() {
        let (upstream, subscriber) = makeTransformPipeline(String.self, TestError.self) { $0.compactMap { Int($0) } }
        subscriber.cancel()
        upstream.send("1")
        upstream.send(completion: .finished)
        #expect(upstream.subscription.cancelCount == 1)
        #expect(subscriber.events == [.subscription])
    }

    @Test func fusedCompactMapAndMapStayOneCompactMap() {
        let (upstream, subscriber) = makeTransformPipeline(String.self, TestError.self) { publisher in
            let fused: Publishers.CompactMap<DrivenPublisher<String, TestError>, String> =
                publisher.compactMap { Int($0) }.compactMap { $0 > 0 ? $0 : nil }.map { "+\($0)" }
            return fused
        }
        for text in ["1", "x", "-2", "3"] { upstream.send(text) }
        #expect(subscriber.values == ["+1", "+3"])
    }

    @Test func describesItselfAsCompactMap() {
        let (upstream, _) = makeTransformPipeline(String.self, TestError.self) { $0.compactMap { Int($0) } }
        let inner = upstream.subscription.downstream
        #expect(inner.description == "CompactMap")
        #expect(inner.playgroundDescription as? String == "CompactMap")
        #expect(inner.customMirror.children.map(\.label) == [])
    }
}
