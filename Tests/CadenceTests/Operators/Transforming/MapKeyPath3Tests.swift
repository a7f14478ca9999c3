import Cadence
import Testing

@Suite("Publishers.MapKeyPath3")
struct MapKeyPath3Tests {
    private let first = TransformPoint(x: 1, y: 2, label: "a")
    private let second = TransformPoint(x: 3, y: 4, label: "b")

    @Test func publishesTheKeyPathValuesThenFinishes() {
        let (upstream, subscriber) = makeTransformPipeline(TransformPoint.self, TestError.self) { publisher in
            let mapped: Publishers.MapKeyPath3<DrivenPublisher<TransformPoint, TestError>, Int, Int, String> =
                publisher.map(\.x, \.y, \.label)
            return mapped
        }
        upstream.send(first)
        upstream.send(second)
        upstream.send(completion: .finished)
        #expect(
            subscriber.transformEventLog
                == ["subscription"] + ["value((1, 2, \"a\"))", "value((3, 4, \"b\"))"] + ["finished"])
    }

    @Test func passesTheUpstreamFailureThrough() {
        let (upstream, subscriber) = makeTransformPipeline(TransformPoint.self, TestError.self) {
            $0.map(\.x, \.y, \.label)
        }
        upstream.send(first)
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.transformEventLog == ["subscription", "value((1, 2, \"a\"))", "failure(oops)"])
    }

    @Test func passesDemandThroughUntouched() {
        let (upstream, subscriber) = makeTransformPipeline(
            TransformPoint.self, TestError.self, initialDemand: .max(1), onValue: { _ in .max(2) }
        ) { $0.map(\.x, \.y, \.label) }
        #expect(upstream.subscription.requests == [.max(1)])
        #expect(upstream.send(first) == .max(2))
        subscriber.request(.max(3))
        #expect(upstream.subscription.requests == [.max(1), .max(3)])
        #expect(upstream.subscription.answered == [.max(2)])
    }

    @Test func cancelReachesUpstreamAndNothingFollows() {
        let (upstream, subscriber) = makeTransformPipeline(TransformPoint.self, TestError.self) {
            $0.map(\.x, \.y, \.label)
        }
        subscriber.cancel()
        upstream.send(first)
        upstream.send(completion: .finished)
        #expect(upstream.subscription.cancelCount == 1)
        #expect(subscriber.transformEventLog == ["subscription"])
    }

    @Test func describesItselfAsValueForKeys() {
        let (upstream, _) = makeTransformPipeline(TransformPoint.self, TestError.self) {
            $0.map(\.x, \.y, \.label)
        }
        let inner = upstream.subscription.downstream
        #expect(inner.description == "ValueForKeys")
        #expect(inner.playgroundDescription as? String == "ValueForKeys")
        #expect(inner.customMirror.children.map(\.label) == ["keyPath0", "keyPath1", "keyPath2"])
    }
}
