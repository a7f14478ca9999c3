import Cadence
import Testing

@Suite("Publishers.Filter")
struct FilterTests {
    @Test func republishesOnlyIncludedValuesThenFinishes() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) {
            $0.filter { $0.isMultiple(of: 2) }
        }
        for value in 1...5 { upstream.send(value) }
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(2), .value(4), .completion(.finished)])
    }

    @Test func passesTheUpstreamFailureThrough() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.filter { _ in true } }
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(.oops))])
    }

    @Test func rejectedValueAsksUpstreamForOneMore() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self, initialDemand: .max(1)) {
            $0.filter { $0.isMultiple(of: 2) }
        }
        #expect(upstream.subscription.requests == [.max(1)])
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .none)
        #expect(subscriber.values == [2])
        subscriber.request(.max(2))
        #expect(upstream.subscription.requests == [.max(1), .max(2)])
        #expect(upstream.subscription.answered == [.max(1), .none])
    }

    @Test func deliveredValueAnswersWithTheDownstreamsDemand() {
        let (upstream, _) = makeTransformPipeline(
            Int.self, TestError.self, initialDemand: .max(1), onValue: { _ in .max(3) }
        ) { $0.filter { $0 > 0 } }
        #expect(upstream.send(5) == .max(3))
        #expect(upstream.send(-5) == .max(1))
    }

    @Test func cancelReachesUpstreamAndNothingFollows() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.filter { _ in true } }
        upstream.send(1)
        subscriber.cancel()
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(upstream.subscription.cancelCount == 1)
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func fusedFiltersKeepOnlyValuesBothAccept() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { publisher in
            let fused: Publishers.Filter<DrivenPublisher<Int, TestError>> =
                publisher.filter { $0.isMultiple(of: 2) }.filter { $0.isMultiple(of: 3) }
            return fused
        }
        for value in 1...12 { upstream.send(value) }
        #expect(subscriber.values == [6, 12])
    }

    @Test func fusedTryFilterFailsWithTheThrownError() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { publisher in
            let fused: Publishers.TryFilter<DrivenPublisher<Int, TestError>> =
                publisher.filter { $0 > 1 }.tryFilter { value in
                    if value == 3 { throw TestError.other }
                    return true
                }
            return fused
        }
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(subscriber.transformEventLog == ["subscription", "value(2)", "failure(other)"])
        #expect(upstream.subscription.isCancelled)
    }

    @Test func describesItselfAsFilter() {
        let (upstream, _) = makeTransformPipeline(Int.self, TestError.self) { $0.filter { _ in true } }
        let inner = upstream.subscription.downstream
        #expect(inner.description == "Filter")
        #expect(inner.playgroundDescription as? String == "Filter")
        #expect(inner.customMirror.children.map(\.label) == [])
    }
}
