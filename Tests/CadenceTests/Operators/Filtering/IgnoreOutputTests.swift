import Cadence
import Testing

@Suite("Publishers.IgnoreOutput")
struct IgnoreOutputTests {
    @Test func dropsEveryValueAndPassesFinishedThrough() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { publisher in
            let ignoring: Publishers.IgnoreOutput<DrivenPublisher<Int, TestError>> = publisher.ignoreOutput()
            return ignoring
        }
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func passesTheUpstreamFailureThrough() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.ignoreOutput() }
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
    }

    @Test func requestsUnlimitedFromUpstreamWhateverTheDownstreamAsks() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self, initialDemand: .max(1)) {
            $0.ignoreOutput()
        }
        #expect(upstream.subscription.requests == [.max(1), .unlimited])
        #expect(upstream.send(1) == .none)
        subscriber.request(.max(2))
        #expect(upstream.subscription.requests == [.max(1), .unlimited, .max(2)])
        #expect(upstream.subscription.answered == [.none])
    }

    @Test func isEquatableWhenItsUpstreamIs() {
        #expect(TaggedPublisher(1).ignoreOutput() == TaggedPublisher(1).ignoreOutput())
        #expect(TaggedPublisher(1).ignoreOutput() != TaggedPublisher(2).ignoreOutput())
    }

    @Test func cancelReachesUpstreamAndNothingFollows() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.ignoreOutput() }
        subscriber.cancel()
        upstream.send(completion: .finished)
        #expect(upstream.subscription.cancelCount == 1)
        #expect(subscriber.events == [.subscription])
    }

    @Test func describesItselfAsIgnoreOutput() {
        let (upstream, _) = makeTransformPipeline(Int.self, TestError.self) { $0.ignoreOutput() }
        let inner = upstream.subscription.downstream
        #expect(inner.description == "IgnoreOutput")
        #expect(inner.playgroundDescription as? String == "IgnoreOutput")
        #expect(inner.customMirror.children.isEmpty)
    }
}
