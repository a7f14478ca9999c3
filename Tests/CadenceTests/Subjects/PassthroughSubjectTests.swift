import Cadence
import Testing

@Suite("PassthroughSubject")
struct PassthroughSubjectTests {
    typealias Subject = PassthroughSubject<Int, TestError>

    @Test func deliversValuesToEverySubscriber() {
        let subject = Subject()
        let first = TestSubscriber<Int, TestError>()
        let second = TestSubscriber<Int, TestError>()
        subject.subscribe(first)
        subject.send(1)
        subject.subscribe(second)
        subject.send(2)
        subject.send(3)
        #expect(first.events == [.subscription, .value(1), .value(2), .value(3)])
        #expect(second.events == [.subscription, .value(2), .value(3)])
    }

    /// Each subscription reaches its subscriber through the function it was made with (specialised for the
    /// subscriber's type where the subscription is made in optimised code that knows it): subscribers of different
    /// types on one subject — through map, filter and scan, type-erased, a sink — each get their own values, within
    /// their own demand.
    @Test func subscribersOfDifferentTypesEachGetTheirOwnValuesWithinTheirDemand() {
        let subject = Subject()
        // 2 requested, 1 more for the first value: 6, 18 and 36 (the odd products are filtered out and asked again).
        let chained = TestSubscriber<Int, TestError>(initialDemand: .max(2)) { $0 == 6 ? .max(1) : .none }
        let erased = TestSubscriber<Int, TestError>()
        var sunk: [Int] = []
        subject.map { $0 * 3 }.filter { $0 % 2 == 0 }.scan(0, +).subscribe(chained)
        subject.subscribe(AnySubscriber(erased))
        let cancellable = subject.sink(receiveCompletion: { _ in }, receiveValue: { sunk.append($0) })
        for value in 1...8 {
            subject.send(value)
        }
        subject.send(completion: .finished)
        #expect(chained.events == [.subscription, .value(6), .value(18), .value(36), .completion(.finished)])
        #expect(erased.values == Array(1...8))
        #expect(sunk == Array(1...8))
        cancellable.cancel()
    }

    @Test func dropsValuesWhenNobodySubscribed() {
        let subject = Subject()
        subject.send(1)
        let subscriber = TestSubscriber<Int, TestError>()
        subject.subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
    }

    @Test func finishedIsDeliveredOnceAndEndsTheSubject() {
        let subject = Subject()
        let subscriber = TestSubscriber<Int, TestError>()
        subject.subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .finished)
        subject.send(2)
        subject.send(completion: .finished)
        subject.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func failureIsDeliveredOnce() {
        let subject = Subject()
        let subscriber = TestSubscriber<Int, TestError>()
        subject.subscribe(subscriber)
        subject.send(completion: .failure(.oops))
        subject.send(completion: .failure(.other))
        subject.send(1)
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
    }

    @Test func completionReachesSubscribersWithoutDemand() {
        let subject = Subject()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        subject.subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func lateSubscriberGetsAnEmptySubscriptionThenTheCompletion() {
        let subject = Subject()
        subject.send(completion: .failure(.oops))
        let subscriber = TestSubscriber<Int, TestError>()
        subject.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
        #expect(subscriber.subscription.map { String(describing: $0) } == "Empty")
    }

    @Test func valuesBeyondDemandAreDroppedUntilMoreIsRequested() {
        let subject = Subject()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        subject.subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        #expect(subscriber.values == [1])
        subscriber.request(.max(2))
        subject.send(4)
        subject.send(5)
        subject.send(6)
        #expect(subscriber.values == [1, 4, 5])
    }

    @Test func demandReturnedFromReceiveAddsUp() {
        let subject = Subject()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1)) { $0 == 2 ? .max(2) : .none }
        subject.subscribe(subscriber)
        subject.send(2)
        subject.send(3)
        subject.send(4)
        subject.send(5)
        #expect(subscriber.values == [2, 3, 4])
    }

    @Test func eachSubscriberHasItsOwnDemand() {
        let subject = Subject()
        let one = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        let two = TestSubscriber<Int, TestError>(initialDemand: .max(2))
        let none = TestSubscriber<Int, TestError>(initialDemand: .none)
        subject.subscribe(one)
        subject.subscribe(two)
        subject.subscribe(none)
        for value in 1...3 { subject.send(value) }
        #expect(one.values == [1])
        #expect(two.values == [1, 2])
        #expect(none.values == [])
    }

    /// How many values a subscriber receives out of 20 for each initial demand and each sequence of demands it
    /// returns from `receive(_:)`; the table is what Combine delivers.
    @Test func demandTable() {
        SharedSubjectChecks.demandTable(
            expectedCounts: [0, 0, 0, 0, 0, 1, 11, 2, 1, 20, 2, 12, 4, 5, 20, 10, 20, 12, 13, 20, 20, 20, 20, 20, 20]
        ) { subscriber, _ in
            let subject = Subject()
            subject.subscribe(subscriber)
            for value in 0..<20 { subject.send(value) }
            subject.send(completion: .finished)
        }
    }

    @Test func sendSubscriptionRequestsUnlimitedOnceSomeSubscriberHasDemand() {
        let subject = Subject()
        let upstream = SubjectsUpstreamSubscription()
        subject.send(subscription: upstream)
        #expect(upstream.requests == [])
        let lazy = TestSubscriber<Int, TestError>(initialDemand: .none)
        subject.subscribe(lazy)
        #expect(upstream.requests == [])
        lazy.request(.max(1))
        #expect(upstream.requests == [.unlimited])
        let eager = TestSubscriber<Int, TestError>(initialDemand: .max(2))
        subject.subscribe(eager)
        #expect(upstream.requests == [.unlimited])
        subject.send(subscription: upstream)
        #expect(upstream.requests == [.unlimited, .unlimited])
        let later = SubjectsUpstreamSubscription()
        subject.send(subscription: later)
        #expect(later.requests == [.unlimited])
    }

    @Test func deinitCancelsUpstreamSubscriptions() {
        let upstream = SubjectsUpstreamSubscription()
        do {
            let subject = Subject()
            subject.send(subscription: upstream)
            subject.send(subscription: upstream)
            #expect(upstream.cancelCount == 0)
        }
        #expect(upstream.cancelCount == 2)
    }

    @Test func cancelStopsDeliveryToThatSubscriberOnly() {
        let subject = Subject()
        let cancelled = TestSubscriber<Int, TestError>()
        let kept = TestSubscriber<Int, TestError>()
        subject.subscribe(cancelled)
        subject.subscribe(kept)
        subject.send(1)
        cancelled.cancel()
        cancelled.cancel()
        cancelled.request(.max(5))
        subject.send(2)
        subject.send(completion: .finished)
        #expect(cancelled.events == [.subscription, .value(1)])
        #expect(kept.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func cancelReleasesTheSubscriberAndTheSubject() {
        SharedSubjectChecks.cancelReleasesTheSubscriberAndTheSubject { Subject() }
    }

    @Test func completionReleasesTheSubscriber() {
        SharedSubjectChecks.completionReleasesTheSubscriber(completion: .finished) { Subject() }
    }

    @Test func reentrantSendIsDeliveredRecursively() {
        SharedSubjectChecks.reentrantSendIsDeliveredRecursively(
            expectedEvents: ["first 1", "first 2", "second 2", "second 1"]
        ) { Subject() }
    }

    @Test func reentrantCompletionIsIgnored() {
        let subject = Subject()
        let subscriber = TestSubscriber<Int, TestError>()
        let reentrant = SubjectsClosureSubscriber<Int, TestError>(onCompletion: { _ in
            subject.send(completion: .failure(.oops))
            subject.send(9)
        })
        subject.subscribe(reentrant)
        subject.subscribe(subscriber)
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func subscribingFromInsideReceiveSubscriptionWorks() {
        let subject = Subject()
        nonisolated(unsafe) var subscriptions: [any Subscription] = []
        nonisolated(unsafe) var values: [Int] = []
        let subscriber = SubjectsClosureSubscriber<Int, TestError>(onValue: {
            values.append($0)
            return .none
        })
        subscriber.onSubscription = { subscription in
            subscription.request(.unlimited)
            subscriptions.append(subscription)
            if subscriptions.count < 3 { subject.subscribe(subscriber) }
        }
        subject.subscribe(subscriber)
        subject.send(7)
        #expect(subscriptions.count == 3)
        #expect(values == [7, 7, 7])
    }

    @Test func describesItselfAsPassthroughSubject() throws {
        let subject = Subject()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(3))
        subject.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "PassthroughSubject")
        #expect(
            (subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "PassthroughSubject")
        #expect(subjectsMirrorLabels(of: subscription) == ["parent", "downstream", "demand", "subject"])
        let demand = Mirror(reflecting: subscription).descendant("demand") as? Subscribers.Demand
        #expect(demand == .max(3))
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            subject.subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "PassthroughSubject")
    }
    #endif
}
