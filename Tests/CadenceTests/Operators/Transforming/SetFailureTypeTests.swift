import Cadence
import Testing

@Suite("Publishers.SetFailureType")
struct SetFailureTypeTests {
    @Test func passesValuesAndFinishedThroughUnderTheNewFailureType() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, Never.self) { publisher in
            let retyped: Publishers.SetFailureType<DrivenPublisher<Int, Never>, TestError> =
                publisher.setFailureType(to: TestError.self)
            return retyped
        }
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func settingTheFailureTypeTwiceKeepsOneWrapper() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, Never.self) { publisher in
            let retyped: Publishers.SetFailureType<DrivenPublisher<Int, Never>, TestError> =
                publisher.setFailureType(to: (any Error).self).setFailureType(to: TestError.self)
            return retyped
        }
        upstream.send(3)
        #expect(subscriber.events == [.subscription, .value(3)])
    }

    @Test func isEquatableWhenItsUpstreamIs() {
        #expect(Just(1).setFailureType(to: TestError.self) == Just(1).setFailureType(to: TestError.self))
        #expect(Just(1).setFailureType(to: TestError.self) != Just(2).setFailureType(to: TestError.self))
    }

    @Test func passesDemandThroughUntouched() {
        let (upstream, subscriber) = makeTransformPipeline(
            Int.self, Never.self, initialDemand: .max(1), onValue: { _ in .max(2) }
        ) { $0.setFailureType(to: TestError.self) }
        #expect(upstream.subscription.requests == [.max(1)])
        #expect(upstream.send(1) == .max(2))
        subscriber.request(.max(5))
        #expect(upstream.subscription.requests == [.max(1), .max(5)])
        #expect(upstream.subscription.answered == [.max(2)])
    }

    @Test func cancelReachesUpstreamAndNothingFollows() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, Never.self) {
            $0.setFailureType(to: TestError.self)
        }
        subscriber.cancel()
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(upstream.subscription.cancelCount == 1)
        #expect(subscriber.events == [.subscription])
    }

    @Test func describesItselfAsSetFailureType() {
        let (upstream, _) = makeTransformPipeline(Int.self, Never.self) { $0.setFailureType(to: TestError.self) }
        let inner = upstream.subscription.downstream
        #expect(inner.description == "SetFailureType")
        #expect(inner.playgroundDescription as? String == "SetFailureType")
        #expect(inner.customMirror.children.map(\.label) == [])
    }
}
