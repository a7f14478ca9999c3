import Cadence
import Testing

@Suite("Publishers.MapError")
struct MapErrorTests {
    private struct Wrapped: Error, Equatable {
        let inner: TestError
    }

    @Test func passesValuesAndFinishedThrough() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.mapError(Wrapped.init) }
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func convertsTheFailure() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { publisher in
            let mapped: Publishers.MapError<DrivenPublisher<Int, TestError>, Wrapped> = publisher.mapError(Wrapped.init)
            return mapped
        }
        upstream.send(1)
        upstream.send(completion: .failure(.other))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(Wrapped(inner: .other)))])
    }

    @Test func bothInitializersKeepTheTransform() {
        let upstream = DrivenPublisher<Int, TestError>()
        let unlabelled = Publishers.MapError(upstream: upstream, { Wrapped(inner: $0) })
        let labelled = Publishers.MapError(upstream: upstream, transform: { _ in Wrapped(inner: .other) })
        #expect(unlabelled.transform(.oops) == Wrapped(inner: .oops))
        #expect(labelled.transform(.oops) == Wrapped(inner: .other))
        #expect(unlabelled.upstream === upstream)
    }

    @Test func passesDemandThroughUntouched() {
        let (upstream, subscriber) = makeTransformPipeline(
            Int.self, TestError.self, initialDemand: .max(1), onValue: { _ in .max(4) }
        ) { $0.mapError(Wrapped.init) }
        #expect(upstream.subscription.requests == [.max(1)])
        #expect(upstream.send(1) == .max(4))
        subscriber.request(.max(2))
        #expect(upstream.subscription.requests == [.max(1), .max(2)])
        #expect(upstream.subscription.answered == [.max(4)])
    }

    @Test func cancelReachesUpstreamAndNothingFollows() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.mapError(Wrapped.init) }
        subscriber.cancel()
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(upstream.subscription.cancelCount == 1)
        #expect(subscriber.events == [.subscription])
    }

    @Test func describesItselfAsMapError() {
        let (upstream, _) = makeTransformPipeline(Int.self, TestError.self) { $0.mapError(Wrapped.init) }
        let inner = upstream.subscription.downstream
        #expect(inner.description == "MapError")
        #expect(inner.playgroundDescription as? String == "MapError")
        #expect(inner.customMirror.children.map(\.label) == [])
    }
}
