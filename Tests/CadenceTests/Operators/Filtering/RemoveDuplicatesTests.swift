import Cadence
import Testing

@Suite("Publishers.RemoveDuplicates")
struct RemoveDuplicatesTests {
    @Test func dropsConsecutiveDuplicatesThenFinishes() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.removeDuplicates() }
        for value in [0, 1, 1, 2, 2, 2, 0, 0] { upstream.send(value) }
        upstream.send(completion: .finished)
        #expect(
            subscriber.events == [.subscription, .value(0), .value(1), .value(2), .value(0), .completion(.finished)])
    }

    @Test func comparesWithThePreviousReceivedElementUsingThePredicate() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { publisher in
            publisher.removeDuplicates { abs($0 - $1) <= 1 }
        }
        // 2 is close to 1 (dropped), 3 is close to 2 (dropped, though 2 was never published), 5 is not close to 3.
        for value in [1, 2, 3, 5] { upstream.send(value) }
        #expect(subscriber.values == [1, 5])
    }

    @Test func passesTheUpstreamFailureThrough() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.removeDuplicates() }
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(.oops))])
    }

    @Test func duplicateAsksUpstreamForOneMore() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self, initialDemand: .max(1)) {
            $0.removeDuplicates()
        }
        #expect(upstream.subscription.requests == [.max(1)])
        #expect(upstream.send(1) == .none)
        subscriber.request(.max(1))
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .none)
        #expect(upstream.subscription.requests == [.max(1), .max(1)])
        #expect(upstream.subscription.answered == [.none, .max(1), .none])
        #expect(subscriber.values == [1, 2])
    }

    @Test func cancelReachesUpstreamOnceAndNothingFollows() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.removeDuplicates() }
        upstream.send(1)
        subscriber.cancel()
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(upstream.subscription.downstream.receive(2) == .none)
        upstream.subscription.downstream.receive(completion: .finished)
        #expect(upstream.subscription.cancelCount == 1)
        #expect(upstream.subscription.requests == [.unlimited])
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func describesItselfAsRemoveDuplicates() throws {
        let (_, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.removeDuplicates() }
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "RemoveDuplicates")
        #expect(
            (subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "RemoveDuplicates")
        #expect(subscriber.transformSubscriptionMirror?.children.map(\.label) == ["downstream", "last"])
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoDemandTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (_, subscriber) = makeTransformPipeline(Int.self, TestError.self, initialDemand: .none) {
                $0.removeDuplicates()
            }
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "RemoveDuplicates")
    }
    #endif
}
