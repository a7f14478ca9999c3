import Cadence
import Dispatch
import Testing

@Suite("Publishers.Throttle")
struct ThrottleTests {
    typealias Source = DrivenPublisher<Int, TestError>

    /// A 300 ms throttle on a virtual scheduler, between a test publisher and a test subscriber.
    struct Fixture {
        let clock = VirtualClock()
        let upstream: Source
        let subscriber: TestSubscriber<Int, TestError>

        init(
            interval: VirtualTime.Stride = .milliseconds(300), latest: Bool = true,
            initialDemand: Subscribers.Demand = .unlimited, upstream: Source = Source(),
            onValue: @escaping (Int) -> Subscribers.Demand = { _ in .none }
        ) {
            self.upstream = upstream
            subscriber = TestSubscriber(initialDemand: initialDemand, onValue: onValue)
            upstream.throttle(for: interval, scheduler: clock.scheduler, latest: latest).subscribe(subscriber)
        }

        func advance(to tick: Int64) {
            clock.advance(to: VirtualClock.Instant(ticks: tick))
        }

        /// Runs what is due at the current tick.
        func runNow() {
            clock.advance(by: .zero)
        }
    }

    // MARK: Subscription and demand upstream

    @Test func handsTheSubscriptionDownstreamThenRequestsUnlimited() {
        TimeOperatorChecks.handsTheSubscriptionDownstreamThenRequestsUnlimited {
            $0.throttle(for: .ticks(300), scheduler: VirtualClock().scheduler, latest: true)
        }
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let fixture = Fixture()
        TimeOperatorChecks.aSecondSubscriptionIsCancelled(upstream: fixture.upstream, subscriber: fixture.subscriber)
    }

    @Test func aSynchronousUpstreamMeetsTheDownstreamsDemand() {
        let clock = VirtualClock()
        let subscriber = TestSubscriber<Int, Never>()
        Just(1).throttle(for: .ticks(300), scheduler: clock.scheduler, latest: false).subscribe(subscriber)
        clock.advance(by: .zero)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    // MARK: Timing

    @Test func theFirstValueGoesOutAtOnceOnTheScheduler() {
        let fixture = Fixture()
        fixture.advance(to: 40)
        fixture.upstream.send(1)
        // Not synchronous: scheduled for the current tick.
        #expect(fixture.subscriber.values == [])
        #expect(fixture.clock.pendingCount == 1)
        fixture.runNow()
        #expect(fixture.subscriber.values == [1])
        #expect(fixture.clock.now.ticks == 40)
        #expect(fixture.clock.pendingCount == 0)
    }

    /// With `latest`, each window publishes its last value (3, then 5); without, its first (1, then 4).
    @Test(arguments: [(true, 3, 5), (false, 1, 4)])
    func eachWindowPublishesItsLastOrFirstValue(latest: Bool, firstWindow: Int, secondWindow: Int) {
        let fixture = Fixture(latest: latest)
        fixture.upstream.send(1)
        fixture.upstream.send(2)
        fixture.upstream.send(3)
        #expect(fixture.clock.pendingCount == 1)
        fixture.runNow()
        #expect(fixture.subscriber.values == [firstWindow])
        fixture.advance(to: 100)
        fixture.upstream.send(4)
        fixture.advance(to: 200)
        fixture.upstream.send(5)
        fixture.advance(to: 299)
        #expect(fixture.subscriber.values == [firstWindow])
        fixture.advance(to: 300)
        #expect(fixture.subscriber.values == [firstWindow, secondWindow])
    }

    @Test func aValueAtTick299WaitsForTick300() {
        let fixture = Fixture()
        fixture.upstream.send(1)
        fixture.runNow()
        fixture.advance(to: 299)
        fixture.upstream.send(2)
        #expect(fixture.subscriber.values == [1])
        fixture.runNow()
        #expect(fixture.subscriber.values == [1])
        fixture.advance(to: 300)
        #expect(fixture.subscriber.values == [1, 2])
    }

    @Test func aValueAtTick300GoesOutAtOnce() {
        let fixture = Fixture()
        fixture.upstream.send(1)
        fixture.runNow()
        fixture.advance(to: 300)
        fixture.upstream.send(2)
        #expect(fixture.subscriber.values == [1])
        fixture.runNow()
        #expect(fixture.subscriber.values == [1, 2])
        #expect(fixture.clock.now.ticks == 300)
    }

    /// As Combine's tests record: out at 0; a value at 45 s waits for 60 s; a value 61 s after that goes out at once.
    @Test func eachWindowIsMeasuredFromTheLastValueThatWentOut() {
        let fixture = Fixture(interval: .seconds(60), latest: false)
        fixture.upstream.send(0)
        fixture.runNow()
        fixture.advance(to: 45_000)
        fixture.upstream.send(1)
        fixture.advance(to: 59_999)
        #expect(fixture.subscriber.values == [0])
        fixture.advance(to: 60_000)
        #expect(fixture.subscriber.values == [0, 1])
        fixture.advance(to: 121_000)
        fixture.upstream.send(2)
        fixture.runNow()
        #expect(fixture.subscriber.values == [0, 1, 2])
        fixture.advance(to: 121_100)
        fixture.upstream.send(3)
        fixture.advance(to: 180_999)
        #expect(fixture.subscriber.values == [0, 1, 2])
        fixture.advance(to: 181_000)
        #expect(fixture.subscriber.values == [0, 1, 2, 3])
    }

    @Test func schedulesTheFirstValueAtOnceAndLaterOnesAfterADateWithoutOptions() {
        let clock = VirtualClock()
        let scheduler = RecordingTestScheduler(clock: clock)
        let upstream = Source()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.throttle(for: .ticks(300), scheduler: scheduler, latest: true).subscribe(subscriber)
        clock.advance(to: .init(ticks: 10))
        upstream.send(1)
        upstream.send(2)
        clock.advance(to: .init(ticks: 20))
        upstream.send(3)
        upstream.send(completion: .finished)
        clock.advance(to: .init(ticks: 400))
        upstream.send(4)
        #expect(
            scheduler.log.value == [
                "schedule(options: nil) at tick 10",
                "schedule(after: tick 310, tolerance: 0 ticks, options: nil) at tick 20",
            ])
        #expect(subscriber.events == [.subscription, .value(2), .value(3), .completion(.finished)])
    }

    /// As Combine does, the subscription reads the scheduler's time when it is made and again when the upstream's
    /// subscription arrives, once for each value, and once for the completion.
    @Test func readsTheSchedulersTimeAsCombineDoes() {
        let clock = VirtualClock()
        let scheduler = RecordingTestScheduler(clock: clock)
        let upstream = Source()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.throttle(for: .ticks(3), scheduler: scheduler, latest: true).subscribe(subscriber)
        #expect(scheduler.nowReads.value == 2)
        upstream.send(1)
        #expect(scheduler.nowReads.value == 3)
        upstream.send(completion: .finished)
        #expect(scheduler.nowReads.value == 4)
    }

    @Test func readsTheSchedulersTimeOnlyWhileTheUpstreamIsSubscribedAsCombineDoes() {
        let clock = VirtualClock()
        let scheduler = RecordingTestScheduler(clock: clock)
        let upstream = Source()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.throttle(for: .ticks(3), scheduler: scheduler, latest: true).subscribe(subscriber)
        upstream.send(1)
        clock.advance(by: .zero)
        #expect(scheduler.nowReads.value == 4) // made, subscribed, the value, its emission
        upstream.send(2)
        upstream.send(completion: .failure(.oops))
        #expect(scheduler.nowReads.value == 6)
        upstream.send(completion: .finished)
        upstream.send(3)
        clock.run() // the emission carrying 2 and the failure
        #expect(scheduler.nowReads.value == 6)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.failure(.oops))])

        let cancelled = Source()
        let cancelling = TestSubscriber<Int, TestError>()
        cancelled.throttle(for: .ticks(3), scheduler: scheduler, latest: true).subscribe(cancelling)
        cancelling.cancel()
        cancelled.send(1)
        cancelled.send(completion: .finished)
        #expect(scheduler.nowReads.value == 8) // made and subscribed only
    }

    // MARK: Completion

    @Test func finishingWaitsForTheWindowsValueThenFollowsIt() {
        let fixture = Fixture()
        fixture.upstream.send(1)
        fixture.runNow()
        fixture.advance(to: 100)
        fixture.upstream.send(2)
        fixture.advance(to: 150)
        fixture.upstream.send(completion: .finished)
        fixture.upstream.send(3)
        fixture.advance(to: 299)
        #expect(fixture.subscriber.events == [.subscription, .value(1)])
        fixture.advance(to: 300)
        #expect(fixture.subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(fixture.clock.pendingCount == 0)
    }

    @Test func failingWaitsForTheWindowsValueThenFollowsIt() {
        let fixture = Fixture(latest: false)
        fixture.upstream.send(1)
        fixture.upstream.send(completion: .failure(.oops))
        fixture.upstream.send(completion: .finished)
        #expect(fixture.subscriber.events == [.subscription])
        fixture.runNow()
        #expect(fixture.subscriber.events == [.subscription, .value(1), .completion(.failure(.oops))])
        #expect(fixture.clock.pendingCount == 0)
    }

    @Test func aCompletionWithNothingWaitingGoesOutAtOnceOnTheScheduler() {
        let fixture = Fixture()
        fixture.upstream.send(1)
        fixture.runNow()
        fixture.advance(to: 50)
        fixture.upstream.send(completion: .failure(.other))
        #expect(fixture.subscriber.events == [.subscription, .value(1)])
        fixture.runNow()
        #expect(fixture.subscriber.events == [.subscription, .value(1), .completion(.failure(.other))])
        #expect(fixture.clock.now.ticks == 50)
    }

    @Test func aCompletionRightAfterSubscribingGoesOutOnTheScheduler() {
        let fixture = Fixture()
        fixture.upstream.send(completion: .finished)
        #expect(fixture.subscriber.events == [.subscription])
        fixture.runNow()
        #expect(fixture.subscriber.events == [.subscription, .completion(.finished)])
    }

    // MARK: Demand

    @Test func aValueArrivingWithoutDemandIsDroppedAtOnce() {
        let fixture = Fixture(initialDemand: .max(2))
        fixture.upstream.send(1)
        fixture.runNow()
        fixture.advance(to: 100)
        fixture.upstream.send(2)
        fixture.advance(to: 300)
        #expect(fixture.subscriber.values == [1, 2])
        fixture.advance(to: 400)
        fixture.upstream.send(3)
        // Nothing scheduled for it: the downstream has no demand left.
        #expect(fixture.clock.pendingCount == 0)
        fixture.subscriber.request(.max(1))
        fixture.advance(to: 2_000)
        #expect(fixture.subscriber.values == [1, 2])
        fixture.upstream.send(4)
        fixture.runNow()
        #expect(fixture.subscriber.values == [1, 2, 4])
        #expect(fixture.upstream.subscription.requests == [.unlimited])
    }

    @Test func demandOfOneThenMoreDeliversExactlyWhatWasRequested() {
        let fixture = Fixture(latest: false, initialDemand: .max(1))
        fixture.upstream.send(1)
        fixture.runNow()
        fixture.upstream.send(2)
        fixture.advance(to: 1_000)
        #expect(fixture.subscriber.values == [1])
        fixture.subscriber.request(.max(2))
        fixture.upstream.send(3)
        fixture.runNow()
        fixture.upstream.send(4)
        fixture.upstream.send(5)
        fixture.advance(to: 1_300)
        fixture.upstream.send(6)
        fixture.advance(to: 5_000)
        #expect(fixture.subscriber.values == [1, 3, 4])
        #expect(fixture.upstream.subscription.requests == [.unlimited])
    }

    @Test func withLatestALaterValueUsesTheDemandAlreadySetAside() {
        let fixture = Fixture(latest: true, initialDemand: .max(1))
        fixture.upstream.send(1)
        fixture.upstream.send(2)
        fixture.runNow()
        #expect(fixture.subscriber.values == [2])
        fixture.upstream.send(3)
        fixture.advance(to: 1_000)
        #expect(fixture.subscriber.values == [2])
    }

    @Test func demandReturnedFromReceiveCounts() {
        let fixture = Fixture(initialDemand: .max(1), onValue: { _ in .max(1) })
        fixture.upstream.send(1)
        fixture.runNow()
        fixture.upstream.send(2)
        fixture.advance(to: 300)
        fixture.upstream.send(3)
        fixture.advance(to: 600)
        #expect(fixture.subscriber.values == [1, 2, 3])
    }

    /// As in Combine, `request(.none)` is no misuse here: it does not trap.
    @Test func requestingNoneAddsNoDemandAndDoesNotTrap() {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        upstream.throttle(for: .ticks(1), scheduler: clock.scheduler, latest: true).subscribe(subscriber)
        subscriber.request(.none)
        upstream.send(1)
        clock.advance(by: .ticks(1))
        #expect(subscriber.values == [])
    }

    // MARK: Cancellation

    @Test func cancellingCancelsTheUpstreamOnceAndLeavesTheScheduledEmissionInert() {
        let fixture = Fixture()
        fixture.upstream.send(1)
        fixture.runNow()
        fixture.advance(to: 100)
        fixture.upstream.send(2)
        #expect(fixture.clock.pendingCount == 1)
        fixture.subscriber.cancel()
        fixture.subscriber.cancel()
        #expect(fixture.upstream.subscription.cancelCount == 1)
        fixture.upstream.send(3)
        fixture.upstream.send(completion: .finished)
        fixture.subscriber.request(.max(3))
        // Combine's throttle schedules without a cancellable: the emission stays on the clock and does nothing.
        #expect(fixture.clock.pendingCount == 1)
        fixture.advance(to: 1_000)
        #expect(fixture.clock.pendingCount == 0)
        #expect(fixture.subscriber.events == [.subscription, .value(1)])
    }

    @Test func cancellingWhileACompletionIsScheduledSuppressesIt() {
        let fixture = Fixture()
        fixture.upstream.send(completion: .finished)
        fixture.subscriber.cancel()
        #expect(fixture.upstream.subscription.cancelCount == 0)
        fixture.runNow()
        #expect(fixture.subscriber.events == [.subscription])
    }

    @Test func cancellingFromInsideReceiveSuppressesTheCompletionThatFollows() {
        let box = LockedBox<TestSubscriber<Int, TestError>?>(nil)
        let fixture = Fixture(onValue: { value in
            if value == 2 { box.value?.cancel() }
            return .none
        })
        box.mutate { $0 = fixture.subscriber }
        fixture.upstream.send(1)
        fixture.runNow()
        fixture.upstream.send(2)
        fixture.upstream.send(completion: .finished)
        fixture.advance(to: 300)
        #expect(fixture.subscriber.events == [.subscription, .value(1), .value(2)])
        box.mutate { $0 = nil }
    }

    @Test func cancellingReleasesTheDownstream() {
        let upstream = Source()
        let clock = VirtualClock()
        weak var released: TestSubscriber<Int, TestError>?
        var subscription: (any Subscription)?
        do {
            let subscriber = TestSubscriber<Int, TestError>()
            released = subscriber
            upstream.throttle(for: .ticks(300), scheduler: clock.scheduler, latest: true).subscribe(subscriber)
            subscription = subscriber.subscription
            subscriber.releaseSubscription()
            upstream.send(1)
        }
        #expect(released != nil)
        subscription?.cancel()
        #expect(released == nil)
        clock.run()
        #expect(clock.pendingCount == 0)
    }

    // MARK: Re-entrancy

    @Test func aValueSentFromInsideReceiveWaitsForTheNextWindow() {
        let upstream = Source()
        let fixture = Fixture(
            upstream: upstream,
            onValue: { value in
                if value == 1 { upstream.send(10) }
                return .none
            })
        upstream.send(1)
        fixture.runNow()
        #expect(fixture.subscriber.values == [1])
        fixture.advance(to: 299)
        #expect(fixture.subscriber.values == [1])
        fixture.advance(to: 300)
        #expect(fixture.subscriber.values == [1, 10])
    }

    @Test func aCompletionSentFromInsideReceiveGoesOutOnTheScheduler() {
        let upstream = Source()
        let fixture = Fixture(
            upstream: upstream,
            onValue: { _ in
                upstream.send(completion: .finished)
                return .none
            })
        upstream.send(1)
        fixture.runNow()
        #expect(fixture.subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(fixture.clock.now.ticks == 0)
    }

    /// As Combine's tests record with `ImmediateScheduler`: each value sent from inside `receive(_:)` goes out
    /// nested inside it.
    @Test func onASynchronousSchedulerValuesSentFromInsideReceiveGoOutNested() {
        let upstream = Source()
        let remaining = LockedBox(5)
        let subscriber = TestSubscriber<Int, TestError>(onValue: { _ in
            if remaining.mutate({ count in
                count -= 1
                return count >= 0
            }) {
                upstream.send(-1)
            }
            return .none
        })
        upstream.throttle(for: .milliseconds(60), scheduler: ImmediateScheduler.shared, latest: true).subscribe(
            subscriber)
        upstream.send(0)
        #expect(subscriber.values == [0, -1, -1, -1, -1, -1])
        upstream.send(completion: .finished)
        #expect(subscriber.events.last == .completion(.finished))
    }

    // MARK: Reflection

    @Test func describesItselfAsCombineDoes() throws {
        let fixture = Fixture()
        let subscription = try #require(fixture.subscriber.subscription)
        #expect((subscription as? CustomStringConvertible)?.description == "Throttle")
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Throttle")
        let mirror = try #require((subscription as? CustomReflectable)?.customMirror)
        #expect(mirror.children.isEmpty)
    }

    // MARK: Threads

    @Test func valuesFromSeveralThreadsWhileTheClockAdvancesStayConsistent() {
        let fixture = Fixture(interval: .ticks(3), initialDemand: .max(500))
        TimeOperatorChecks.sendFromSeveralThreadsWhileTheClockAdvances(
            to: fixture.upstream, clock: fixture.clock, perSender: 300, senderBase: 10_000
        )
        fixture.upstream.send(completion: .finished)
        fixture.clock.run()
        #expect(fixture.clock.pendingCount == 0)
        let values = fixture.subscriber.values
        #expect(!values.isEmpty)
        #expect(values.count <= 500)
        #expect(values.allSatisfy { $0 % 10_000 < 300 && $0 / 10_000 < 4 })
        #expect(fixture.subscriber.completions.count == 1)
        #expect(fixture.subscriber.events.last == .completion(.finished))
    }
}
