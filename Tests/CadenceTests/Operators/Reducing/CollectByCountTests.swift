import Cadence
import Testing

@Suite("Publishers.CollectByCount")
struct CollectByCountTests {
    @Test func publishesFullBatchesThenTheRestOnFinish() {
        let harness = ReducingHarness(initialDemand: .unlimited) { $0.collect(2) }
        harness.send([1, 2, 3, 4, 5])
        #expect(harness.events == ["subscription", "value([1, 2])", "value([3, 4])"])
        harness.upstream.send(completion: .finished)
        #expect(harness.events == ["subscription", "value([1, 2])", "value([3, 4])", "value([5])", "finished"])
        #expect(harness.requests == [.unlimited])
    }

    @Test func sendsNoEmptyBatchWhenTheLastOneWasFull() {
        let harness = ReducingHarness(initialDemand: .unlimited) { $0.collect(2) }
        harness.send([1, 2])
        harness.upstream.send(completion: .finished)
        #expect(harness.events == ["subscription", "value([1, 2])", "finished"])
    }

    @Test func finishesEmptyWithoutValues() {
        let harness = ReducingHarness(initialDemand: .none) { $0.collect(3) }
        harness.upstream.send(completion: .finished)
        #expect(harness.events == ["subscription", "finished"])
    }

    @Test func multipliesDemandByTheCount() {
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<[Int], TestError>(initialDemand: .max(2)) { _ in .max(1) }
        upstream.collect(3).subscribe(subscriber)
        #expect(upstream.subscription.requests == [.max(6)])
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        #expect(upstream.send(3) == .max(3))
        #expect(subscriber.values == [[1, 2, 3]])
        subscriber.request(.max(4))
        #expect(upstream.subscription.requests == [.max(6), .max(12)])
        subscriber.request(.unlimited)
        #expect(upstream.subscription.requests == [.max(6), .max(12), .unlimited])
    }

    @Test func startsWithNoDemandAndForwardsTheFirstRequest() {
        let harness = ReducingHarness(initialDemand: .none) { $0.collect(2) }
        #expect(harness.requests == [])
        harness.subscriber.request(.max(1))
        #expect(harness.requests == [.max(2)])
        harness.send([7, 8])
        #expect(harness.events == ["subscription", "value([7, 8])"])
    }

    /// The partial batch goes with the failure; as in Combine, a value after it goes nowhere while a second
    /// completion goes on.
    @Test func dropsThePartialBatchOnFailure() {
        let harness = ReducingHarness(initialDemand: .unlimited) { $0.collect(3) }
        harness.send([1, 2, 3, 4])
        harness.upstream.send(completion: .failure(.oops))
        #expect(harness.events == ["subscription", "value([1, 2, 3])", "failure(oops)"])
        #expect(harness.force(5) == .none)
        harness.force(completion: .finished)
        #expect(harness.events == ["subscription", "value([1, 2, 3])", "failure(oops)", "finished"])
        #expect(harness.cancelCount == 0)
    }

    /// After a cancel, values and requests go nowhere and the partial batch is dropped; as in Combine, a completion
    /// the upstream still sends goes on, alone.
    @Test func cancelStopsValuesAndRequestsButPassesALateCompletionOn() {
        let harness = ReducingHarness(initialDemand: .unlimited) { $0.collect(2) }
        harness.send([1])
        harness.subscriber.cancel()
        #expect(harness.cancelCount == 1)
        #expect(harness.force(2) == .none)
        harness.subscriber.request(.max(1))
        harness.force(completion: .finished)
        harness.subscriber.cancel()
        #expect(harness.events == ["subscription", "finished"])
        #expect(harness.cancelCount == 1)
        #expect(harness.requests == [.unlimited])
    }

    /// As in Combine: the subscription keeps its subscriber until the upstream lets go of it.
    @Test func cancelKeepsTheSubscriberUntilTheUpstreamLetsGo() {
        SingleUpstreamOperatorChecks.cancelKeepsTheSubscriberUntilTheUpstreamLetsGo { $0.collect(2) }
    }

    @Test func cancelsASecondSubscription() {
        let harness = ReducingHarness(initialDemand: .max(1)) { $0.collect(2) }
        let other = DrivenPublisher<Int, TestError>()
        other.subscribe(TestSubscriber<Int, TestError>(initialDemand: .none))
        harness.upstream.subscription.downstream.receive(subscription: other.subscription)
        #expect(other.subscription.cancelCount == 1)
        #expect(harness.cancelCount == 0)
        #expect(harness.events == ["subscription"])
    }

    @Test func aCompletionBeforeTheSubscriptionIsPassedOnAndEndsIt() {
        let upstream = DrivenPublisher<Int, TestError>(sendsSubscriptionAtOnce: false)
        let subscriber = TestSubscriber<[Int], TestError>()
        upstream.collect(2).subscribe(subscriber)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.completion(.finished)])
        upstream.subscription.deliver()
        #expect(upstream.subscription.cancelCount == 1)
        #expect(subscriber.events == [.completion(.finished)])
    }

    /// The downstream gets the subscription only with the upstream's: a cancel before that can come only from a caller
    /// that kept the subscriber, and Combine ignores it.
    @Test func aCancelBeforeTheUpstreamSubscriptionIsIgnored() throws {
        let upstream = SubscriberKeepingPublisher<Int>()
        let subscriber = TestSubscriber<[Int], TestError>(initialDemand: .max(1))
        upstream.collect(3).subscribe(subscriber)
        try #require(upstream.subscriber as? any Subscription).cancel()
        let source = DrivenPublisher<Int, TestError>()
        source.subscribe(TestSubscriber<Int, TestError>(initialDemand: .none))
        upstream.send(subscription: source.subscription)
        #expect(source.subscription.requests == [.max(3)])
        #expect(source.subscription.cancelCount == 0)
        #expect(subscriber.events == [.subscription])
    }

    @Test func describesItself() {
        let harness = ReducingHarness(initialDemand: .none) { $0.collect(4) }
        ReducingChecks.describesItself(
            name: "CollectByCount", mirrorLabels: ["downstream", "upstreamSubscription", "buffer", "count"]
        ) { $0.collect(4) }
        harness.send([1, 2])
        let mirror = harness.subscriber.subscription.map { Mirror(reflecting: $0) }
        #expect(mirror?.descendant("buffer") as? [Int] == [1, 2])
        #expect(mirror?.descendant("count") as? Int == 4)
    }

    @Test func isEquatableWhenItsUpstreamIs() {
        #expect(TaggedPublisher(1).collect(2) == TaggedPublisher(1).collect(2))
        #expect(TaggedPublisher(1).collect(2) != TaggedPublisher(1).collect(3))
        #expect(TaggedPublisher(1).collect(2).count == 2)
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>()
            let subscriber = TestSubscriber<[Int], TestError>(initialDemand: .none)
            upstream.collect(2).subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "CollectByCount")
    }
    #endif

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func aCountBelowOneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>()
            upstream.collect(0).subscribe(TestSubscriber<[Int], TestError>())
        }
        let message = "CollectByCount: collect(_:) needs a count greater than zero, got 0"
        #expect(result?.standardErrorText.contains(message) == true)
    }
    #endif
}
