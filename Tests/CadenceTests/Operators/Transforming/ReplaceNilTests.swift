import Cadence
import Testing

@Suite("Publisher.replaceNil(with:)")
struct ReplaceNilTests {
    @Test func replacesNilElementsThenFinishes() {
        let (upstream, subscriber) = makeTransformPipeline(Int?.self, TestError.self) { publisher in
            let replaced: Publishers.Map<DrivenPublisher<Int?, TestError>, Int> = publisher.replaceNil(with: 0)
            return replaced
        }
        upstream.send(1)
        upstream.send(nil)
        upstream.send(3)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(0), .value(3), .completion(.finished)])
    }

    @Test func passesTheUpstreamFailureThrough() {
        let (upstream, subscriber) = makeTransformPipeline(Int?.self, TestError.self) { $0.replaceNil(with: 0) }
        upstream.send(nil)
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value(0), .completion(.failure(.oops))])
    }

    @Test func passesDemandThroughUntouched() {
        let (upstream, subscriber) = makeTransformPipeline(
            Int?.self, TestError.self, initialDemand: .max(1), onValue: { _ in .max(2) }
        ) { $0.replaceNil(with: 0) }
        #expect(upstream.subscription.requests == [.max(1)])
        #expect(upstream.send(nil) == .max(2))
        subscriber.request(.max(3))
        #expect(upstream.subscription.requests == [.max(1), .max(3)])
        #expect(upstream.subscription.answered == [.max(2)])
    }

    @Test func cancelReachesUpstreamAndNothingFollows() {
        let (upstream, subscriber) = makeTransformPipeline(Int?.self, TestError.self) { $0.replaceNil(with: 0) }
        subscriber.cancel()
        upstream.send(nil)
        upstream.send(completion: .finished)
        #expect(upstream.subscription.cancelCount == 1)
        #expect(subscriber.events == [.subscription])
    }

    @Test func describesItselfAsMap() {
        let (upstream, _) = makeTransformPipeline(Int?.self, TestError.self) { $0.replaceNil(with: 0) }
        let inner = upstream.subscription.downstream
        #expect(inner.description == "Map")
        #expect(inner.playgroundDescription as? String == "Map")
    }
}
