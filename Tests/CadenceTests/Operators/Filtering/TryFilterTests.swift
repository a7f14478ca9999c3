import Cadence
import Testing

@Suite("Publishers.TryFilter")
struct TryFilterTests {
    @Test func republishesOnlyIncludedValuesThenFinishes() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) {
            $0.tryFilter { $0.isMultiple(of: 2) }
        }
        for value in 1...5 { upstream.send(value) }
        upstream.send(completion: .finished)
        #expect(subscriber.transformEventLog == ["subscription", "value(2)", "value(4)", "finished"])
    }

    @Test func passesTheUpstreamFailureThrough() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.tryFilter { _ in true } }
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.transformEventLog == ["subscription", "failure(oops)"])
        #expect(subscriber.completions.first.flatMap(TestError.init(failureOf:)) == .oops)
    }

    @Test func thrownErrorFailsDownstreamCancelsUpstreamAndNothingFollows() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { publisher in
            publisher.tryFilter { value in
                if value == 3 { throw TestError.other }
                return true
            }
        }
        upstream.send(1)
        #expect(upstream.send(3) == .none)
        #expect(upstream.subscription.cancelCount == 1)
        // A misbehaving upstream that keeps sending reaches nobody.
        #expect(upstream.subscription.downstream.receive(4) == .none)
        upstream.subscription.downstream.receive(completion: .finished)
        #expect(subscriber.transformEventLog == ["subscription", "value(1)", "failure(other)"])
    }

    @Test func rejectedValueAsksUpstreamForOneMore() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self, initialDemand: .max(1)) {
            $0.tryFilter { $0.isMultiple(of: 2) }
        }
        #expect(upstream.subscription.requests == [.max(1)])
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .none)
        subscriber.request(.max(3))
        #expect(upstream.subscription.requests == [.max(1), .max(3)])
        #expect(upstream.subscription.answered == [.max(1), .none])
        #expect(subscriber.values == [2])
    }

    @Test func cancelReachesUpstreamOnceAndNothingFollows() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.tryFilter { _ in true } }
        upstream.send(1)
        subscriber.cancel()
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(upstream.subscription.downstream.receive(2) == .none)
        upstream.subscription.downstream.receive(completion: .finished)
        #expect(upstream.subscription.cancelCount == 1)
        #expect(upstream.subscription.requests == [.unlimited])
        #expect(subscriber.transformEventLog == ["subscription", "value(1)"])
    }

    @Test func fusedFiltersKeepOnlyValuesBothAccept() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { publisher in
            let fused: Publishers.TryFilter<DrivenPublisher<Int, TestError>> =
                publisher.tryFilter { $0.isMultiple(of: 2) }.filter { $0.isMultiple(of: 3) }.tryFilter { $0 > 6 }
            return fused
        }
        for value in 1...18 { upstream.send(value) }
        #expect(subscriber.values == [12, 18])
    }

    @Test func describesItselfAsTryFilter() throws {
        let (_, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.tryFilter { _ in true } }
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "TryFilter")
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "TryFilter")
        #expect(subscriber.transformSubscriptionMirror?.children.map(\.label) == ["downstream"])
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoDemandTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (_, subscriber) = makeTransformPipeline(Int.self, TestError.self, initialDemand: .none) {
                $0.tryFilter { _ in true }
            }
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "TryFilter")
    }
    #endif
}
