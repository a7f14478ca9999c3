import Cadence
import Testing

@Suite("Publishers.Retry")
struct RetryTests {
    typealias Source = DrivenPublisher<Int, TestError>

    /// Fails the upstream's latest subscription only (earlier ones already failed).
    func fail(_ upstream: Source, _ error: TestError = .oops) {
        upstream.subscription.downstream.receive(completion: .failure(error))
    }

    func send(_ value: Int, from upstream: Source) {
        _ = upstream.subscription.downstream.receive(value)
    }

    @Test func passesValuesAndFinishedThrough() {
        let upstream = Source()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.retry(2).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(upstream.subscriptions.count == 1)
        #expect(upstream.subscription.requests == [.unlimited])
    }

    @Test func resubscribesExactlyTheGivenNumberOfTimes() {
        let upstream = Source()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.retry(2).subscribe(subscriber)
        send(1, from: upstream)
        fail(upstream)
        send(2, from: upstream)
        fail(upstream)
        #expect(upstream.subscriptions.count == 3)
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        fail(upstream, .other)
        #expect(upstream.subscriptions.count == 3)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.failure(.other))])
        #expect(subscriber.subscriptions == 1)
    }

    @Test func zeroRetriesPassesTheFailureOn() {
        let upstream = Source()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.retry(0).subscribe(subscriber)
        fail(upstream)
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
        #expect(upstream.subscriptions.count == 1)
    }

    @Test func nilRetriesForever() {
        let upstream = Source()
        let subscriber = TestSubscriber<Int, TestError>()
        Publishers.Retry(upstream: upstream, retries: nil).subscribe(subscriber)
        for _ in 0..<50 {
            fail(upstream)
        }
        upstream.subscription.downstream.receive(completion: .finished)
        #expect(upstream.subscriptions.count == 51)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func aPublisherFailingInsideSubscribeIsRetriedWithoutRecursion() {
        let upstream = FlatteningFailingPublisher()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.retry(10_000).subscribe(subscriber)
        #expect(upstream.subscriptionCount == 10_001)
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
    }

    @Test func outstandingDemandIsCarriedOverToEachNewSubscription() {
        let upstream = Source()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(3))
        upstream.retry(1).subscribe(subscriber)
        #expect(upstream.subscription.requests == [.max(3)])
        send(1, from: upstream)
        fail(upstream)
        #expect(upstream.subscriptions.count == 2)
        #expect(upstream.subscription.requests == [.max(2)])
        subscriber.request(.max(1))
        #expect(upstream.subscription.requests == [.max(2), .max(1)])
        #expect(upstream.subscriptions[0].requests == [.max(3)])
    }

    @Test func demandReturnedByTheDownstreamIsPassedUpstream() {
        let upstream = Source()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1), onValue: { _ in .max(2) })
        upstream.retry(1).subscribe(subscriber)
        // As in Combine: as a request, and the value's own return is none.
        #expect(upstream.send(1) == .none)
        #expect(upstream.subscription.requests == [.max(1), .max(2)])
        fail(upstream)
        #expect(upstream.subscription.requests == [.max(2)])
    }

    @Test func cancelCancelsTheCurrentSubscriptionOnce() {
        let upstream = Source()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.retry(3).subscribe(subscriber)
        fail(upstream)
        subscriber.cancel()
        subscriber.cancel()
        #expect(upstream.subscriptions[0].cancelCount == 0)
        #expect(upstream.subscriptions[1].cancelCount == 1)
        send(1, from: upstream)
        fail(upstream)
        #expect(upstream.subscriptions.count == 2)
        #expect(subscriber.events == [.subscription])
    }

    @Test func aSecondSubscriptionWhileSubscribedIsCancelled() {
        let upstream = Source()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.retry(1).subscribe(subscriber)
        let extra = Source()
        extra.subscribe(upstream.subscription.downstream)
        #expect(extra.subscription.isCancelled)
        #expect(extra.subscription.requests == [])
        #expect(subscriber.subscriptions == 1)
    }

    @Test func equatableWhenTheUpstreamIs() {
        #expect(TaggedPublisher(1).retry(2) == TaggedPublisher(1).retry(2))
        #expect(TaggedPublisher(1).retry(2) != TaggedPublisher(1).retry(3))
        #expect(TaggedPublisher(1).retry(2) != TaggedPublisher(2).retry(2))
        #expect(Publishers.Retry(upstream: TaggedPublisher(1), retries: nil) != TaggedPublisher(1).retry(3))
    }

    @Test func descriptionsNameRetry() throws {
        let upstream = Source()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.retry(1).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect((subscription as? any CustomStringConvertible)?.description == "Retry")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "Retry")
        let mirror = try #require((subscription as? any CustomReflectable)?.customMirror)
        #expect(mirror.children.isEmpty)
    }

    @Test func aNegativeNumberOfRetriesRetriesIndefinitely() {
        let upstream = Source()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.retry(-1).subscribe(subscriber)
        for _ in 0..<50 {
            fail(upstream)
        }
        #expect(upstream.subscriptions.count == 51)
        #expect(subscriber.events == [.subscription])
    }

    @Test func zeroDemandIsPassedOn() {
        let upstream = Source()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        upstream.retry(1).subscribe(subscriber)
        subscriber.request(.none)
        #expect(upstream.subscription.requests == [.none])
    }

    #if !canImport(Combine) // Combine traps too; the message is Cadence's
    @Test func anUnrequestedValueTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>()
            upstream.retry(1).subscribe(TestSubscriber<Int, TestError>(initialDemand: .none))
            upstream.send(1)
        }
        #expect(
            result?.standardErrorText.contains(
                "Retry: the upstream sent a value that was not requested; a publisher sends no more values than its "
                    + "subscriber requested") == true)
    }
    #endif
}
