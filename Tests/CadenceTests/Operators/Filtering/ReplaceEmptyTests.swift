import Cadence
import Dispatch
import Testing

@Suite("Publishers.ReplaceEmpty")
struct ReplaceEmptyTests {
    @Test func passesValuesThrough() {
        let harness = ReducingHarness(initialDemand: .unlimited) { $0.replaceEmpty(with: 42) }
        harness.send([1, 2, 3])
        harness.upstream.send(completion: .finished)
        #expect(harness.events == ["subscription", "value(1)", "value(2)", "value(3)", "finished"])
    }

    @Test func replacesAnEmptyStream() {
        let harness = ReducingHarness(initialDemand: .max(1)) { $0.replaceEmpty(with: 42) }
        harness.upstream.send(completion: .finished)
        #expect(harness.events == ["subscription", "value(42)", "finished"])
    }

    @Test func holdsTheReplacementUntilRequested() {
        let harness = ReducingHarness(initialDemand: .none) { $0.replaceEmpty(with: 42) }
        harness.upstream.send(completion: .finished)
        #expect(harness.events == ["subscription"])
        harness.subscriber.request(.max(1))
        #expect(harness.events == ["subscription", "value(42)", "finished"])
        harness.subscriber.request(.max(1))
        #expect(harness.events == ["subscription", "value(42)", "finished"])
        #expect(harness.requests == [.unlimited]) // its own, as Combine's
    }

    /// As Combine's: the downstream's demand goes up as it is, and once the downstream has its subscription the
    /// upstream is asked for `.unlimited` too (OpenCombine's `ReplaceEmptyTests.testDemand` records Combine doing so).
    @Test func passesDemandThroughAndAsksTheUpstreamForEverything() {
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1)) { _ in .max(2) }
        upstream.replaceEmpty(with: 42).subscribe(subscriber)
        #expect(upstream.subscription.requests == [.max(1), .unlimited])
        #expect(upstream.send(5) == .max(2))
        subscriber.request(.max(3))
        #expect(upstream.subscription.requests == [.max(1), .unlimited, .max(3)])
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(5), .completion(.finished)])
    }

    @Test func forwardsFailureWithoutReplacing() {
        let empty = ReducingHarness(initialDemand: .max(1)) { $0.replaceEmpty(with: 42) }
        empty.upstream.send(completion: .failure(.oops))
        #expect(empty.events == ["subscription", "failure(oops)"])
        empty.subscriber.request(.max(1))
        #expect(empty.events == ["subscription", "failure(oops)"])

        let nonEmpty = ReducingHarness(initialDemand: .max(2)) { $0.replaceEmpty(with: 42) }
        nonEmpty.send([8])
        nonEmpty.upstream.send(completion: .failure(.oops))
        #expect(nonEmpty.events == ["subscription", "value(8)", "failure(oops)"])
        #expect(nonEmpty.cancelCount == 0)
    }

    @Test func cancelStopsEverything() {
        // The subscriber's `.unlimited`, then the operator's own, as Combine's.
        ReducingChecks.cancelStopsEverything(after: [], lateValue: 1, requests: [.unlimited, .unlimited]) {
            $0.replaceEmpty(with: 42)
        }
    }

    /// As in Combine: the subscription keeps its subscriber until the upstream lets go of it.
    @Test func cancelKeepsTheSubscriberUntilTheUpstreamLetsGo() {
        SingleUpstreamOperatorChecks.cancelKeepsTheSubscriberUntilTheUpstreamLetsGo { $0.replaceEmpty(with: 42) }
    }

    @Test func cancelWhileHoldingTheReplacementDropsIt() {
        let harness = ReducingHarness(initialDemand: .none) { $0.replaceEmpty(with: 42) }
        harness.upstream.send(completion: .finished)
        harness.subscriber.cancel()
        harness.subscriber.request(.max(1))
        #expect(harness.events == ["subscription"])
        #expect(harness.cancelCount == 0)
    }

    @Test func cancelsASecondSubscription() {
        let harness = ReducingHarness(initialDemand: .max(1)) { $0.replaceEmpty(with: 42) }
        let other = DrivenPublisher<Int, TestError>()
        other.subscribe(TestSubscriber<Int, TestError>(initialDemand: .none))
        harness.upstream.subscription.downstream.receive(subscription: other.subscription)
        #expect(other.subscription.cancelCount == 1)
        #expect(harness.cancelCount == 0)
    }

    @Test func aRequestRacingAnEmptyFinishDeliversTheReplacementExactlyOnce() {
        for _ in 0..<200 {
            let upstream = DrivenPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
            upstream.replaceEmpty(with: 42).subscribe(subscriber)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 {
                    upstream.send(completion: .finished)
                } else {
                    subscriber.request(.max(1))
                }
            }
            #expect(subscriber.events == [.subscription, .value(42), .completion(.finished)])
        }
    }

    /// With no demand from the downstream at all, the upstream is still asked for everything, and what it sends
    /// reaches the downstream.
    @Test func asksTheUpstreamForEverythingEvenWithNoDemand() {
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none) { _ in .none }
        upstream.replaceEmpty(with: 42).subscribe(subscriber)
        #expect(upstream.subscription.requests == [.unlimited])
        _ = upstream.send(7)
        #expect(subscriber.events == [.subscription, .value(7)])
    }

    @Test func describesItself() {
        ReducingChecks.describesItself(name: "ReplaceEmpty", mirrorLabels: []) { $0.replaceEmpty(with: 42) }
    }

    @Test func isEquatableWhenItsUpstreamAndOutputAre() {
        #expect(TaggedPublisher(1).replaceEmpty(with: 2) == TaggedPublisher(1).replaceEmpty(with: 2))
        #expect(TaggedPublisher(1).replaceEmpty(with: 2) != TaggedPublisher(1).replaceEmpty(with: 3))
        #expect(TaggedPublisher(1).replaceEmpty(with: 2).output == 2)
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
            upstream.replaceEmpty(with: 1).subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "ReplaceEmpty")
    }
    #endif
}
