import Cadence
import Testing

@Suite("Publishers.TryMap")
struct TryMapTests {
    @Test func transformsValuesThenFinishes() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.tryMap { $0 * 10 } }
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.transformEventLog == ["subscription", "value(10)", "value(20)", "finished"])
    }

    @Test func passesTheUpstreamFailureThrough() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.tryMap { $0 } }
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.completions.first.flatMap(TestError.init(failureOf:)) == .oops)
        #expect(subscriber.transformEventLog == ["subscription", "failure(oops)"])
    }

    @Test func thrownErrorFailsDownstreamAndCancelsUpstream() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { publisher in
            publisher.tryMap { value -> String in
                if value == 2 { throw TestError.other }
                return "#\(value)"
            }
        }
        upstream.send(1)
        #expect(upstream.send(2) == .none)
        #expect(upstream.subscription.cancelCount == 1)
        upstream.subscription.downstream.receive(completion: .failure(.oops))
        #expect(subscriber.transformEventLog == ["subscription", "value(#1)", "failure(other)"])
    }

    /// As Combine's `tryMap` does, the subscription keeps no guard on values: what a misbehaving upstream still sends
    /// after the end is transformed and delivered, and a throw then fails the downstream again. The upstream's own
    /// completion after the end is dropped.
    @Test func valuesAfterTheEndStillGoThroughAsInCombine() {
        let (upstream, subscriber) = makeTransformPipeline(
            Int.self, TestError.self, onValue: { _ in .max(3) }
        ) { publisher in
            publisher.tryMap { value -> String in
                if value == 2 { throw TestError.other }
                return "#\(value)"
            }
        }
        #expect(upstream.send(2) == .none)
        let inner = upstream.subscription.downstream
        #expect(inner.receive(3) == .max(3))
        #expect(inner.receive(2) == .none)
        inner.receive(completion: .finished)
        #expect(subscriber.transformEventLog == ["subscription", "failure(other)", "value(#3)", "failure(other)"])
        #expect(upstream.subscription.cancelCount == 1)
    }

    @Test func passesDemandThroughAndAnswersWithTheDownstreamsDemand() {
        let (upstream, subscriber) = makeTransformPipeline(
            Int.self, TestError.self, initialDemand: .max(1), onValue: { $0 == 1 ? .max(2) : .none }
        ) { $0.tryMap { $0 } }
        #expect(upstream.subscription.requests == [.max(1)])
        #expect(upstream.send(1) == .max(2))
        #expect(upstream.send(2) == .none)
        subscriber.request(.max(5))
        #expect(upstream.subscription.requests == [.max(1), .max(5)])
        #expect(upstream.subscription.answered == [.max(2), .none])
        #expect(subscriber.values == [1, 2])
    }

    @Test func cancelReachesUpstreamOnceAndLaterValuesStillGoThroughAsInCombine() throws {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.tryMap { $0 } }
        upstream.send(1)
        subscriber.cancel()
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(upstream.subscription.downstream.receive(2) == .none)
        upstream.subscription.downstream.receive(completion: .finished)
        #expect(upstream.subscription.cancelCount == 1)
        #expect(upstream.subscription.requests == [.unlimited])
        #expect(subscriber.transformEventLog == ["subscription", "value(1)", "value(2)"])
    }

    @Test func mapThenTryMapFuseIntoOneTryMap() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { publisher in
            let fused: Publishers.TryMap<DrivenPublisher<Int, TestError>, String> =
                publisher.map { $0 + 1 }.tryMap { $0 * 2 }.map { "\($0)" }.tryMap { $0 + "!" }
            return fused
        }
        upstream.send(1)
        upstream.send(4)
        #expect(subscriber.values == ["4!", "10!"])
    }

    @Test func fusedMapAfterTryMapStillFailsWithTheThrownError() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { publisher in
            publisher.tryMap { value -> Int in
                if value < 0 { throw TestError.oops }
                return value
            }.map { $0 * 3 }
        }
        upstream.send(2)
        upstream.send(-1)
        #expect(subscriber.transformEventLog == ["subscription", "value(6)", "failure(oops)"])
    }

    @Test func describesItselfAsTryMap() throws {
        let (_, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.tryMap { $0 } }
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "TryMap")
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "TryMap")
        #expect(subscriber.transformSubscriptionMirror?.children.map(\.label) == [])
    }

    /// As Combine's `tryMap` does, a zero demand goes to the upstream as it is.
    @Test func aZeroDemandIsPassedOn() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self, initialDemand: .none) {
            $0.tryMap { $0 }
        }
        subscriber.request(.none)
        #expect(upstream.subscription.requests == [.none])
    }
}
