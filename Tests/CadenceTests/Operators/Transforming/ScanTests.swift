import Cadence
import Testing

@Suite("Publishers.Scan")
struct ScanTests {
    @Test func publishesEachRunningResultThenFinishes() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.scan(10, +) }
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(11), .value(13), .value(16), .completion(.finished)])
    }

    @Test func passesTheUpstreamFailureThrough() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.scan("", { $0 + "\($1)" }) }
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value("1"), .completion(.failure(.oops))])
    }

    @Test func eachSubscriptionStartsFromTheInitialResult() {
        let upstream = DrivenPublisher<Int, TestError>()
        let scan = upstream.scan(0, +)
        let first = TestSubscriber<Int, TestError>()
        scan.subscribe(first)
        upstream.send(5)
        let second = TestSubscriber<Int, TestError>()
        scan.subscribe(second)
        upstream.send(1)
        #expect(first.values == [5, 6])
        #expect(second.values == [1])
    }

    @Test func passesDemandThroughUntouched() {
        let (upstream, subscriber) = makeTransformPipeline(
            Int.self, TestError.self, initialDemand: .max(1), onValue: { $0 == 1 ? .max(2) : .none }
        ) { $0.scan(0, +) }
        #expect(upstream.subscription.requests == [.max(1)])
        #expect(upstream.send(1) == .max(2))
        #expect(upstream.send(1) == .none)
        subscriber.request(.max(3))
        #expect(upstream.subscription.requests == [.max(1), .max(3)])
        #expect(upstream.subscription.answered == [.max(2), .none])
        #expect(subscriber.values == [1, 2])
    }

    @Test func cancelReachesUpstreamAndNothingFollows() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.scan(0, +) }
        upstream.send(1)
        subscriber.cancel()
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(upstream.subscription.cancelCount == 1)
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func describesItselfAsScan() {
        let (upstream, _) = makeTransformPipeline(Int.self, TestError.self) { $0.scan(7, +) }
        let inner = upstream.subscription.downstream
        #expect(inner.description == "Scan")
        #expect(inner.playgroundDescription as? String == "Scan")
        #expect(inner.customMirror.children.map(\.label) == ["downstream", "result"])
        #expect(inner.customMirror.descendant("result") as? Int == 7)
    }
}
