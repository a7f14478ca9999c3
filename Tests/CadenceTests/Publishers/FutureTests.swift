import Cadence
import Foundation
import Testing

@Suite("Future")
struct FutureTests {
    /// A future whose promise the test fulfils.
    private func makeFuture() -> (Future<Int, TestError>, PublishersTestBox<Future<Int, TestError>.Promise?>) {
        let promise = PublishersTestBox<Future<Int, TestError>.Promise?>(nil)
        let future = Future<Int, TestError> { fulfil in promise.value = fulfil }
        return (future, promise)
    }

    @Test func theAttemptRunsOnceAtInit() {
        let runs = PublishersTestBox(0)
        let future = Future<Int, Never> { promise in
            runs.withLock { $0 += 1 }
            promise(.success(1))
        }
        #expect(runs.value == 1)
        future.subscribe(TestSubscriber<Int, Never>())
        future.subscribe(TestSubscriber<Int, Never>())
        #expect(runs.value == 1)
    }

    @Test func valueWaitsForDemand() {
        let (future, promise) = makeFuture()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        future.subscribe(subscriber)
        promise.value?(.success(5))
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(5), .completion(.finished)])
    }

    @Test func demandWaitsForTheValue() {
        let (future, promise) = makeFuture()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        future.subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        promise.value?(.success(5))
        #expect(subscriber.events == [.subscription, .value(5), .completion(.finished)])
    }

    @Test func failureGoesOutWithoutDemand() {
        let (future, promise) = makeFuture()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        future.subscribe(subscriber)
        promise.value?(.failure(.oops))
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
    }

    @Test func replaysToLateSubscribers() {
        let success = Future<Int, TestError> { $0(.success(9)) }
        let late = TestSubscriber<Int, TestError>(initialDemand: .none)
        success.subscribe(late)
        #expect(late.events == [.subscription])
        late.request(.max(3))
        #expect(late.events == [.subscription, .value(9), .completion(.finished)])

        let failure = Future<Int, TestError> { $0(.failure(.other)) }
        let lateFailure = TestSubscriber<Int, TestError>(initialDemand: .none)
        failure.subscribe(lateFailure)
        #expect(lateFailure.events == [.subscription, .completion(.failure(.other))])
    }

    @Test func aSecondPromiseCallIsIgnored() {
        let (future, promise) = makeFuture()
        let subscriber = TestSubscriber<Int, TestError>()
        future.subscribe(subscriber)
        promise.value?(.success(1))
        promise.value?(.success(2))
        promise.value?(.failure(.oops))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        let late = TestSubscriber<Int, TestError>()
        future.subscribe(late)
        #expect(late.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func fulfillingAgainFromInsideTheSubscriberIsIgnored() {
        let (future, promise) = makeFuture()
        let subscriber = TestSubscriber<Int, TestError> { value in
            promise.value?(.success(value + 1))
            return .none
        }
        future.subscribe(subscriber)
        promise.value?(.success(0))
        #expect(subscriber.events == [.subscription, .value(0), .completion(.finished)])
        promise.value = nil
    }

    @Test func releasesTheSubscriberAndItselfOnceSettled() {
        weak var weakSubscriber: TestSubscriber<Int, TestError>?
        weak var weakFuture: Future<Int, TestError>?
        do {
            let (future, promise) = makeFuture()
            weakFuture = future
            do {
                let subscriber = TestSubscriber<Int, TestError>()
                weakSubscriber = subscriber
                future.subscribe(subscriber)
                subscriber.releaseSubscription()
            }
            #expect(weakSubscriber != nil)
            promise.value?(.failure(.oops))
            #expect(weakSubscriber == nil)
            promise.value = nil
        }
        #expect(weakFuture == nil)
    }

    @Test func cancelledSubscriberGetsNothing() {
        let (future, promise) = makeFuture()
        let cancelled = TestSubscriber<Int, TestError>()
        let active = TestSubscriber<Int, TestError>()
        future.subscribe(cancelled)
        future.subscribe(active)
        cancelled.cancel()
        promise.value?(.success(3))
        #expect(cancelled.events == [.subscription])
        #expect(active.events == [.subscription, .value(3), .completion(.finished)])
    }

    @Test func cancelReleasesTheDownstream() {
        let (future, promise) = makeFuture()
        weak var weakSubscriber: TestSubscriber<Int, TestError>?
        var subscription: (any Subscription)?
        do {
            let subscriber = TestSubscriber<Int, TestError>()
            weakSubscriber = subscriber
            future.subscribe(subscriber)
            subscription = subscriber.subscription
            subscriber.releaseSubscription()
        }
        #expect(weakSubscriber != nil)
        subscription?.cancel()
        #expect(weakSubscriber == nil)
        promise.value = nil
    }

    @Test func description() {
        let (future, promise) = makeFuture()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        future.subscribe(subscriber)
        let subscription = subscriber.subscription
        #expect(subscription.map { String(describing: $0) } == "Future")
        #expect((subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Future")
        let mirror = subscription.map { Mirror(reflecting: $0) }
        #expect(mirror?.children.map(\.label) == ["parent", "downstream", "hasAnyDemand", "subject"])
        promise.value = nil
    }

    /// As in Combine, the subscription lets go of the future only once the outcome has been delivered: its mirror's
    /// `parent` is the future while the subscriber receives the value, and `nil` afterwards.
    @Test func theSubscriptionKeepsTheFutureUntilTheOutcomeIsDelivered() throws {
        let (future, promise) = makeFuture()
        nonisolated(unsafe) var subscription: (any Subscription)?
        let parentWhileDelivering = PublishersTestBox<[Bool]>([])
        func hasParent() -> Bool {
            let parent = subscription.flatMap { Mirror(reflecting: $0).children.first { $0.label == "parent" } }
            return (parent?.value as? Future<Int, TestError>?).flatMap { $0 } != nil
        }
        let subscriber = TestSubscriber<Int, TestError>(onValue: { _ in
            parentWhileDelivering.withLock { $0.append(hasParent()) }
            return .none
        })
        future.subscribe(subscriber)
        subscription = subscriber.subscription
        #expect(hasParent())
        let fulfil = try #require(promise.value)
        fulfil(.success(4))
        #expect(parentWhileDelivering.value == [true])
        #expect(!hasParent())
        promise.value = nil
    }

    /// As in Combine, a value that waited for demand and goes out on the request leaves the future as the
    /// subscription's parent.
    @Test func aValueDeliveredOnRequestLeavesTheFutureAsParent() throws {
        let (future, promise) = makeFuture()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        future.subscribe(subscriber)
        let fulfil = try #require(promise.value)
        fulfil(.success(4))
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(4), .completion(.finished)])
        let subscription = try #require(subscriber.subscription)
        let parent = Mirror(reflecting: subscription).children.first { $0.label == "parent" }
        #expect((parent?.value as? Future<Int, TestError>?).flatMap { $0 } === future)
        promise.value = nil
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            Future<Int, Never> { $0(.success(1)) }.subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "Future")
    }
    #endif

    @Test func promiseFromManyThreadsSettlesOnceForEverySubscriber() async {
        for _ in 0..<50 {
            let (future, promise) = makeFuture()
            let subscribers = (0..<4).map { _ in TestSubscriber<Int, TestError>() }
            let sharedFuture = PublishersTestBox(future)
            await withTaskGroup(of: Void.self) { group in
                for (index, subscriber) in subscribers.enumerated() {
                    group.addTask { sharedFuture.value.subscribe(subscriber) }
                    group.addTask { promise.value?(.success(index)) }
                }
            }
            let late = TestSubscriber<Int, TestError>()
            future.subscribe(late)
            for subscriber in subscribers + [late] {
                #expect(subscriber.events.count == 3)
                #expect(subscriber.values == late.values)
                #expect(subscriber.completions == [.finished])
            }
            promise.value = nil
        }
    }

    @Test func asyncValue() async throws {
        let ready = Future<Int, Never> { $0(.success(4)) }
        #expect(await ready.value == 4)
        let (future, promise) = makeFuture()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { promise.value?(.success(8)) }
        #expect(try await future.value == 8)
    }

    @Test func asyncValueThrowsTheFailure() async {
        let failing = Future<Int, TestError> { $0(.failure(.oops)) }
        await #expect(throws: TestError.oops) { try await failing.value }
    }

    @Test func cancellingTheWaitingTaskThrowsCancellationError() async {
        let (future, promise) = makeFuture()
        let task = Task { try await future.value }
        try? await Task.sleep(for: .milliseconds(20))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        promise.value?(.success(1)) // settling afterwards reaches nobody
        promise.value = nil
    }
}
