import Cadence
import Testing

@Suite("CurrentValueSubject")
struct CurrentValueSubjectTests {
    typealias Subject = CurrentValueSubject<Int, TestError>

    @Test func deliversTheCurrentValueOnSubscriptionThenEachNewValue() {
        let subject = Subject(1)
        let subscriber = TestSubscriber<Int, TestError>()
        subject.subscribe(subscriber)
        subject.send(2)
        subject.value = 3
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3)])
        #expect(subject.value == 3)
    }

    /// Values sent reach each subscriber through the function its subscription was made with (specialised for the
    /// subscriber's type in optimised code that knows it), values replayed at a request through the subscription's
    /// own code: both, mixed, for subscribers of different types on one subject, each within its own demand.
    @Test func sentAndReplayedValuesReachSubscribersOfDifferentTypes() {
        let subject = Subject(1)
        let chained = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        let erased = TestSubscriber<Int, TestError>()
        var sunk: [Int] = []
        subject.map { $0 * 10 }.subscribe(chained)
        subject.subscribe(AnySubscriber(erased))
        let cancellable = subject.sink(receiveCompletion: { _ in }, receiveValue: { sunk.append($0) })
        subject.send(2)
        chained.request(.max(1))
        subject.send(3)
        subject.value = 4
        chained.request(.unlimited)
        subject.send(5)
        #expect(chained.values == [10, 20, 40, 50])
        #expect(erased.values == [1, 2, 3, 4, 5])
        #expect(sunk == [1, 2, 3, 4, 5])
        cancellable.cancel()
    }

    @Test func sendAndSetUpdateTheValueALateSubscriberSees() {
        let subject = Subject(0)
        subject.send(2)
        #expect(subject.value == 2)
        subject.value = 3
        let subscriber = TestSubscriber<Int, TestError>()
        subject.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(3)])
    }

    @Test func settingTheSameValueSendsItAgain() {
        let subject = Subject(4)
        let subscriber = TestSubscriber<Int, TestError>()
        subject.subscribe(subscriber)
        subject.value = subject.value
        #expect(subscriber.values == [4, 4])
    }

    @Test func finishedIsDeliveredOnceAndEndsTheSubject() {
        let subject = Subject(0)
        let subscriber = TestSubscriber<Int, TestError>()
        subject.subscribe(subscriber)
        subject.send(completion: .finished)
        subject.send(1)
        subject.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value(0), .completion(.finished)])
    }

    @Test func failureIsDeliveredOnce() {
        let subject = Subject(0)
        let subscriber = TestSubscriber<Int, TestError>()
        subject.subscribe(subscriber)
        subject.value += 3
        subject.send(completion: .failure(.oops))
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(0), .value(3), .completion(.failure(.oops))])
    }

    @Test func afterCompletionSendIsIgnoredButSettingStoresTheValue() {
        let subject = Subject(0)
        subject.send(completion: .finished)
        subject.send(42)
        #expect(subject.value == 0)
        subject.value = 42
        #expect(subject.value == 42)
    }

    @Test func lateSubscriberGetsAnEmptySubscriptionThenTheCompletion() {
        let subject = Subject(0)
        subject.send(completion: .finished)
        let subscriber = TestSubscriber<Int, TestError>()
        subject.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(subscriber.subscription.map { String(describing: $0) } == "Empty")
    }

    @Test func nothingIsDeliveredBeforeARequest() {
        let subject = Subject(0)
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        subject.subscribe(subscriber)
        subject.send(1)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func demandIsHonoured() {
        let subject = Subject(-1)
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(2))
        subject.subscribe(subscriber)
        subscriber.request(.max(3))
        subscriber.request(.max(1))
        #expect(subscriber.values == [-1])
        for value in 0..<10 { subject.send(value) }
        #expect(subscriber.values == [-1, 0, 1, 2, 3, 4])
    }

    @Test func aRequestAfterAMissedValueDeliversTheCurrentValue() {
        let subject = Subject(0)
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        subject.subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        #expect(subscriber.values == [0])
        subscriber.request(.max(2))
        #expect(subscriber.values == [0, 2])
        subject.send(3)
        subject.send(4)
        #expect(subscriber.values == [0, 2, 3])
    }

    /// How many values a subscriber receives for each initial demand and each sequence of demands it returns from
    /// `receive(_:)`, when it subscribes and then the value is changed 21 times; the table is what Combine delivers.
    @Test func demandTable() {
        SharedSubjectChecks.demandTable(
            expectedCounts: [0, 0, 0, 0, 0, 1, 11, 2, 1, 22, 2, 12, 4, 5, 22, 10, 20, 12, 13, 22, 22, 22, 22, 22, 22]
        ) { subscriber, initial in
            let subject = Subject(112)
            subject.value -= 1
            subject.subscribe(subscriber)
            #expect(subscriber.values == (initial == .none ? [] : [111]))
            for _ in 0..<20 { subject.value += 1 }
            subject.value = subject.value
            subject.send(completion: .finished)
        }
    }

    @Test func sendSubscriptionRequestsUnlimitedAtOnce() {
        let subject = Subject(1)
        let upstream = SubjectsUpstreamSubscription()
        subject.send(subscription: upstream)
        #expect(upstream.requests == [.unlimited])
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        subject.subscribe(subscriber)
        #expect(upstream.requests == [.unlimited])
        subject.send(subscription: upstream)
        #expect(upstream.requests == [.unlimited, .unlimited])
    }

    @Test func deinitCancelsUpstreamSubscriptions() {
        let upstream = SubjectsUpstreamSubscription()
        do {
            let subject = Subject(0)
            subject.send(subscription: upstream)
            #expect(upstream.cancelCount == 0)
        }
        #expect(upstream.cancelCount == 1)
    }

    @Test func cancelStopsDeliveryToThatSubscriberOnly() {
        let subject = Subject(0)
        let cancelled = TestSubscriber<Int, TestError>()
        let kept = TestSubscriber<Int, TestError>()
        subject.subscribe(cancelled)
        subject.subscribe(kept)
        subject.send(1)
        cancelled.cancel()
        cancelled.cancel()
        cancelled.request(.max(3))
        subject.send(2)
        subject.send(completion: .finished)
        #expect(cancelled.events == [.subscription, .value(0), .value(1)])
        #expect(kept.events == [.subscription, .value(0), .value(1), .value(2), .completion(.finished)])
    }

    @Test func cancelReleasesTheSubscriberAndTheSubject() {
        SharedSubjectChecks.cancelReleasesTheSubscriberAndTheSubject { Subject(0) }
    }

    @Test func completionReleasesTheSubscriber() {
        SharedSubjectChecks.completionReleasesTheSubscriber(completion: .failure(.oops)) { Subject(0) }
    }

    @Test func reentrantSendIsDeliveredRecursively() {
        let subject = SharedSubjectChecks.reentrantSendIsDeliveredRecursively(
            expectedEvents: ["first 0", "second 0", "first 1", "first 2", "second 2", "second 1"]
        ) { Subject(0) }
        #expect(subject.value == 2)
    }

    @Test func reentrantCompletionAndValuesAreIgnored() {
        let subject = Subject(112)
        let subscriber = TestSubscriber<Int, TestError>()
        let reentrant = SubjectsClosureSubscriber<Int, TestError>(onCompletion: { _ in
            subject.send(completion: .failure(.oops))
            subject.send(42)
        })
        subject.subscribe(reentrant)
        subject.subscribe(subscriber)
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(112), .completion(.finished)])
        #expect(subject.value == 112)
    }

    @Test func describesItselfAsCurrentValueSubject() throws {
        let subject = Subject(42)
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(12))
        subject.subscribe(subscriber)
        subject.send(1)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "CurrentValueSubject")
        #expect(
            (subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "CurrentValueSubject")
        #expect(subjectsMirrorLabels(of: subscription) == ["parent", "downstream", "demand", "subject"])
        #expect(Mirror(reflecting: subscription).descendant("demand") as? Subscribers.Demand == .max(10))
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subject = CurrentValueSubject<Int, Never>(0)
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            subject.subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "CurrentValueSubject")
    }
    #endif
}
