import Cadence
import Testing

@Suite("Publishers.MapKeyPath")
struct MapKeyPathTests {
    private let first = TransformPoint(x: 1, y: 2, label: "a")
    private let second = TransformPoint(x: 3, y: 4, label: "b")

    @Test func publishesTheKeyPathValuesThenFinishes() {
        let (upstream, subscriber) = makeTransformPipeline(TransformPoint.self, TestError.self) { publisher in
            let mapped: Publishers.MapKeyPath<DrivenPublisher<TransformPoint, TestError>, Int> =
                publisher.map(\.x)
            return mapped
        }
        upstream.send(first)
        upstream.send(second)
        upstream.send(completion: .finished)
        #expect(
            subscriber.transformEventLog
                == ["subscription"] + ["value(1)", "value(3)"] + ["finished"])
    }

    @Test func passesTheUpstreamFailureThrough() {
        let (upstream, subscriber) = makeTransformPipeline(TransformPoint.self, TestError.self) { $0.map(\.x) }
        upstream.send(first)
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.transformEventLog == ["subscription", "value(1)", "failure(oops)"])
    }

    @Test func passesDemandThroughUntouched() {
        let (upstream, subscriber) = makeTransformPipeline(
            TransformPoint.self, TestError.self, initialDemand: .max(1), onValue: { _ in .max(2) }
        ) { $0.map(\.x) }
        #expect(upstream.subscription.requests == [.max(1)])
        #expect(upstream.send(first) == .max(2))
        subscriber.request(.max(3))
        #expect(upstream.subscription.requests == [.max(1), .max(3)])
        #expect(upstream.subscription.answered == [.max(2)])
    }

    @Test func cancelReachesUpstreamAndNothingFollows() {
        let (upstream, subscriber) = makeTransformPipeline(TransformPoint.self, TestError.self) { $0.map(\.x) }
        subscriber.cancel()
        upstream.send(first)
        upstream.send(completion: .finished)
        #expect(upstream.subscription.cancelCount == 1)
        #expect(subscriber.transformEventLog == ["subscription"])
    }

    @Test func describesItselfAsValueForKey() {
        let (upstream, _) = makeTransformPipeline(TransformPoint.self, TestError.self) { $0.map(\.x) }
        let inner = upstream.subscription.downstream
        #expect(inner.description == "ValueForKey")
        #expect(inner.playgroundDescription as? String == "ValueForKey")
        #expect(inner.customMirror.children.map(\.label) == ["keyPath"])
    }
}
