import Cadence
import Dispatch
import Testing

@Suite("Publishers.Debounce")
struct DebounceTests {
    typealias Source = DrivenPublisher<Int, TestError>

    /// A 300 ms debounce on a virtual scheduler, between a test publisher and a test subscriber.
    struct Fixture {
        let clock: VirtualClock
        let upstream = Source()
        let subscriber: TestSubscriber<Int, TestError>

        init(
            dueTime: VirtualTime.Stride = .milliseconds(300), initialDemand: Subscribers.Demand = .unlimited,
            onValue: @escaping (Int) -> Subscribers.Demand = { _ in .none },
            clock: VirtualClock = VirtualClock()
        ) {
            self.clock = clock
            subscriber = TestSubscriber(initialDemand: initialDemand, onValue: onValue)
            upstream.debounce(for: dueTime, scheduler: clock.scheduler).subscribe(subscriber)
        }

        func advance(to tick: Int64) {
            clock.advance(to: VirtualClock.Instant(ticks: tick))
        }
    }

    // MARK: Subscription and demand upstream

    @Test func handsTheSubscriptionDownstreamThenRequestsUnlimited() {
        TimeOperatorChecks.handsTheSubscriptionDownstreamThenRequestsUnlimited {
            $0.debounce(for: .ticks(300), scheduler: VirtualClock().scheduler)
        }
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let fixture = Fixture()
        TimeOperatorChecks.aSecondSubscriptionIsCancelled(upstream: fixture.upstream, subscriber: fixture.subscriber)
    }

    // MARK: Timing

    @Test func aValueGoesOutAfterDueTimeOfSilenceNotBefore() {
        let fixture = Fixture()
        #expect(fixture.upstream.send(1) == .none)
        #expect(fixture.clock.pendingCount == 1)
        fixture.advance(to: 299)
        #expect(fixture.subscriber.values == [])
        fixture.advance(to: 300)
        #expect(fixture.subscriber.values == [1])
        // The repeating timer behind the wait is cancelled when it fires: nothing is left on the clock.
        #expect(fixture.clock.pendingCount == 0)
        fixture.advance(to: 2_000)
        #expect(fixture.subscriber.values == [1])
    }

    @Test func aValueAtTick299ReplacesThePendingOneAndRestartsTheWait() {
        let fixture = Fixture()
        fixture.upstream.send(1)
        fixture.advance(to: 299)
        fixture.upstream.send(2)
        // The first value's timer was cancelled: one timer pending, not two.
        #expect(fixture.clock.pendingCount == 1)
        fixture.advance(to: 300)
        #expect(fixture.subscriber.values == [])
        fixture.advance(to: 598)
        #expect(fixture.subscriber.values == [])
        fixture.advance(to: 599)
        #expect(fixture.subscriber.values == [2])
    }

    @Test func aValueAtTick300ComesAfterThePendingOneWentOut() {
        let fixture = Fixture()
        fixture.upstream.send(1)
        fixture.advance(to: 300)
        fixture.upstream.send(2)
        #expect(fixture.subscriber.values == [1])
        fixture.advance(to: 599)
        #expect(fixture.subscriber.values == [1])
        fixture.advance(to: 600)
        #expect(fixture.subscriber.values == [1, 2])
    }

    /// The example of Combine's documentation: values at 0, 0.25, 1, 1.25, 1.5 and 2 seconds through a 0.5 second
    /// debounce come out as 1, 4 and 5.
    @Test func theBurstsOfCombinesDocumentationComeOutAsTheirLastValues() {
        let fixture = Fixture(dueTime: .milliseconds(500))
        for (value, tick) in [(0, 0), (1, 250), (2, 1_000), (3, 1_250), (4, 1_500), (5, 2_000)] as [(Int, Int64)] {
            fixture.advance(to: tick)
            fixture.upstream.send(value)
        }
        // 1 went out at 750; 4 went out at 2000, just before 5 arrived.
        #expect(fixture.subscriber.values == [1, 4])
        fixture.advance(to: 2_499)
        #expect(fixture.subscriber.values == [1, 4])
        fixture.advance(to: 2_500)
        #expect(fixture.subscriber.values == [1, 4, 5])
    }

    @Test func eachValueOfABurstAtTheSameTickReplacesTheLast() {
        let fixture = Fixture()
        for value in 1...100 {
            fixture.upstream.send(value)
        }
        #expect(fixture.clock.pendingCount == 1)
        fixture.advance(to: 300)
        #expect(fixture.subscriber.values == [100])
    }

    @Test func schedulesARepeatingTimerWithItsOptionsAndTheCompletionWithoutThem() {
        let clock = VirtualClock()
        let scheduler = RecordingTestScheduler(clock: clock)
        let upstream = Source()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.debounce(for: .ticks(300), scheduler: scheduler, options: "fast").subscribe(subscriber)
        clock.advance(to: .init(ticks: 10))
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(
            scheduler.log.value == [
                "schedule(after: tick 310, interval: 300 ticks, tolerance: 0 ticks, options: fast) at tick 10",
                "schedule(options: nil) at tick 10",
            ])
    }

    @Test func aZeroDueTimeDeliversOnTheSchedulerAtTheSameTickWithoutMisuse() {
        let messages = LockedBox<[String]>([])
        let fixture = Fixture(dueTime: .zero, clock: VirtualClock(reporter: .init { messages.append($0.message) }))
        fixture.advance(to: 40)
        fixture.upstream.send(1)
        #expect(fixture.subscriber.values == [])
        fixture.clock.advance(by: .zero)
        #expect(fixture.subscriber.values == [1])
        #expect(fixture.clock.now.ticks == 40)
        #expect(fixture.clock.pendingCount == 0)
        #expect(messages.value == [])
    }

    /// As Combine's tests record with a scheduler whose cancellables do nothing: the timers of replaced values keep
    /// firing, and deliver nothing.
    @Test func timersThatCannotBeCancelledDeliverOnlyTheValueTheyWereSetFor() {
        let clock = VirtualClock()
        let upstream = Source()
        let subscriber = TestSubscriber<Int, TestError>()
        let scheduler = NonCancellingTestScheduler(base: clock.scheduler)
        upstream.debounce(for: .ticks(13), scheduler: scheduler).subscribe(subscriber)
        for (value, tick) in [(1, 0), (2, 2), (3, 4), (42, 6)] as [(Int, Int64)] {
            clock.advance(to: .init(ticks: tick))
            upstream.send(value)
        }
        clock.advance(to: .init(ticks: 18))
        #expect(subscriber.values == [])
        clock.advance(to: .init(ticks: 19))
        #expect(subscriber.values == [42])
        clock.advance(to: .init(ticks: 500))
        #expect(subscriber.values == [42])
        // The four repeating timers are still running: nothing could cancel them.
        #expect(clock.pendingCount == 4)
        subscriber.cancel()
        clock.advance(to: .init(ticks: 1_000))
        #expect(subscriber.events == [.subscription, .value(42)])
        _ = clock.end()
    }

    // MARK: Completion

    @Test func finishingDropsThePendingValueAndFinishesOnTheScheduler() {
        let fixture = Fixture()
        fixture.upstream.send(1)
        fixture.advance(to: 100)
        fixture.upstream.send(completion: .finished)
        // Not synchronous: delivered by the scheduler at the same tick, when the clock next runs.
        #expect(fixture.subscriber.events == [.subscription])
        #expect(fixture.clock.pendingCount == 1)
        fixture.clock.advance(by: .zero)
        #expect(fixture.subscriber.events == [.subscription, .completion(.finished)])
        #expect(fixture.clock.now.ticks == 100)
        #expect(fixture.clock.pendingCount == 0)
        fixture.advance(to: 1_000)
        #expect(fixture.subscriber.events == [.subscription, .completion(.finished)])
        #expect(fixture.upstream.subscription.cancelCount == 0)
    }

    @Test func failingDropsThePendingValueAndFailsOnTheScheduler() {
        let fixture = Fixture()
        fixture.upstream.send(1)
        fixture.advance(to: 299)
        fixture.upstream.send(completion: .failure(.oops))
        #expect(fixture.subscriber.events == [.subscription])
        fixture.advance(to: 300)
        #expect(fixture.subscriber.events == [.subscription, .completion(.failure(.oops))])
        #expect(fixture.clock.pendingCount == 0)
    }

    @Test func completionWithNothingPendingFollowsTheDeliveredValues() {
        let fixture = Fixture()
        fixture.upstream.send(1)
        fixture.advance(to: 300)
        fixture.advance(to: 450)
        fixture.upstream.send(completion: .failure(.other))
        fixture.upstream.send(completion: .finished)
        fixture.upstream.send(2)
        fixture.advance(to: 450)
        #expect(fixture.subscriber.events == [.subscription, .value(1), .completion(.failure(.other))])
        fixture.advance(to: 2_000)
        #expect(fixture.subscriber.events == [.subscription, .value(1), .completion(.failure(.other))])
        #expect(fixture.clock.pendingCount == 0)
    }

    // MARK: Demand

    @Test func aValueDueWithoutDemandIsDroppedNotKeptForLaterDemand() {
        let fixture = Fixture(initialDemand: .none)
        fixture.upstream.send(1)
        fixture.advance(to: 300)
        #expect(fixture.subscriber.values == [])
        #expect(fixture.clock.pendingCount == 0)
        fixture.subscriber.request(.max(1))
        fixture.advance(to: 1_000)
        #expect(fixture.subscriber.values == [])
        fixture.upstream.send(2)
        fixture.advance(to: 1_300)
        #expect(fixture.subscriber.values == [2])
        #expect(fixture.upstream.subscription.requests == [.unlimited])
    }

    @Test func demandOfOneThenMoreDeliversExactlyWhatWasRequested() {
        let fixture = Fixture(initialDemand: .max(1))
        fixture.upstream.send(1)
        fixture.advance(to: 300)
        #expect(fixture.subscriber.values == [1])
        fixture.upstream.send(2)
        fixture.advance(to: 600)
        #expect(fixture.subscriber.values == [1])
        fixture.subscriber.request(.max(2))
        for (value, tick) in [(3, 900), (4, 1_200), (5, 1_500)] as [(Int, Int64)] {
            fixture.upstream.send(value)
            fixture.advance(to: tick)
        }
        #expect(fixture.subscriber.values == [1, 3, 4])
        // Whatever the downstream asks for, the upstream was asked once, for everything.
        #expect(fixture.upstream.subscription.requests == [.unlimited])
    }

    @Test func demandReturnedFromReceiveCounts() {
        let fixture = Fixture(initialDemand: .max(1), onValue: { _ in .max(1) })
        for (value, tick) in [(1, 300), (2, 600), (3, 900)] as [(Int, Int64)] {
            fixture.upstream.send(value)
            fixture.advance(to: tick)
        }
        #expect(fixture.subscriber.values == [1, 2, 3])
    }

    /// As in Combine, `request(.none)` is no misuse here: it does not trap.
    @Test func requestingNoneAddsNoDemandAndDoesNotTrap() {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        upstream.debounce(for: .ticks(1), scheduler: clock.scheduler).subscribe(subscriber)
        subscriber.request(.none)
        upstream.send(1)
        clock.advance(by: .ticks(1))
        #expect(subscriber.values == [])
    }

    // MARK: Cancellation

    @Test func cancellingCancelsTheUpstreamOnceAndTheTimerAndDeliversNothingMore() {
        let fixture = Fixture()
        fixture.upstream.send(1)
        #expect(fixture.clock.pendingCount == 1)
        fixture.advance(to: 100)
        fixture.subscriber.cancel()
        #expect(fixture.upstream.subscription.cancelCount == 1)
        #expect(fixture.clock.pendingCount == 0)
        fixture.upstream.send(2)
        fixture.upstream.send(completion: .finished)
        fixture.subscriber.request(.max(5))
        fixture.subscriber.cancel()
        #expect(fixture.clock.pendingCount == 0)
        fixture.advance(to: 2_000)
        #expect(fixture.subscriber.events == [.subscription])
        #expect(fixture.upstream.subscription.cancelCount == 1)
    }

    @Test func cancellingWhileTheCompletionIsScheduledSuppressesIt() {
        let fixture = Fixture()
        fixture.upstream.send(completion: .finished)
        fixture.subscriber.cancel()
        // The upstream completed: it is not cancelled. The scheduled completion runs and does nothing.
        #expect(fixture.upstream.subscription.cancelCount == 0)
        fixture.clock.advance(by: .zero)
        #expect(fixture.subscriber.events == [.subscription])
        #expect(fixture.clock.pendingCount == 0)
    }

    @Test func cancellingReleasesTheDownstream() {
        let upstream = Source()
        let clock = VirtualClock()
        weak var released: TestSubscriber<Int, TestError>?
        var subscription: (any Subscription)?
        do {
            let subscriber = TestSubscriber<Int, TestError>()
            released = subscriber
            upstream.debounce(for: .ticks(300), scheduler: clock.scheduler).subscribe(subscriber)
            subscription = subscriber.subscription
            subscriber.releaseSubscription()
            upstream.send(1)
        }
        #expect(released != nil)
        subscription?.cancel()
        #expect(released == nil)
        #expect(clock.pendingCount == 0)
    }

    @Test func cancellingFromInsideReceiveStopsEverything() {
        let box = LockedBox<TestSubscriber<Int, TestError>?>(nil)
        let fixture = Fixture(onValue: { _ in
            box.value?.cancel()
            return .none
        })
        box.mutate { $0 = fixture.subscriber }
        fixture.upstream.send(1)
        fixture.advance(to: 300)
        fixture.upstream.send(2)
        fixture.advance(to: 1_000)
        #expect(fixture.subscriber.values == [1])
        #expect(fixture.upstream.subscription.cancelCount == 1)
        #expect(fixture.clock.pendingCount == 0)
        box.mutate { $0 = nil }
    }

    // MARK: Re-entrancy

    @Test func aValueSentFromInsideReceiveIsDebouncedFromThatTick() {
        let upstream = Source()
        let fixture = FixtureWithUpstream(upstream: upstream) { value in
            if value == 1 { upstream.send(10) }
            return .none
        }
        upstream.send(1)
        fixture.advance(to: 300)
        #expect(fixture.subscriber.values == [1])
        #expect(fixture.clock.pendingCount == 1)
        fixture.advance(to: 599)
        #expect(fixture.subscriber.values == [1])
        fixture.advance(to: 600)
        #expect(fixture.subscriber.values == [1, 10])
    }

    @Test func onASynchronousSchedulerValuesSentFromInsideReceiveGoOutNested() {
        let upstream = Source()
        let subscriber = TestSubscriber<Int, TestError>(onValue: { value in
            if value > 0 { upstream.send(value - 1) }
            return .none
        })
        upstream.debounce(for: .milliseconds(300), scheduler: ImmediateScheduler.shared).subscribe(subscriber)
        upstream.send(3)
        #expect(subscriber.values == [3, 2, 1, 0])
        upstream.send(completion: .finished)
        #expect(subscriber.events.last == .completion(.finished))
    }

    /// A debounce whose downstream reaches back into `upstream`.
    struct FixtureWithUpstream {
        let clock = VirtualClock()
        let subscriber: TestSubscriber<Int, TestError>

        init(upstream: Source, onValue: @escaping (Int) -> Subscribers.Demand) {
            subscriber = TestSubscriber(onValue: onValue)
            upstream.debounce(for: .ticks(300), scheduler: clock.scheduler).subscribe(subscriber)
        }

        func advance(to tick: Int64) {
            clock.advance(to: VirtualClock.Instant(ticks: tick))
        }
    }

    // MARK: Reflection

    @Test func describesItselfAsCombineDoes() throws {
        let fixture = Fixture(initialDemand: .max(2))
        let subscription = try #require(fixture.subscriber.subscription)
        #expect((subscription as? CustomStringConvertible)?.description == "Debounce")
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Debounce")
        fixture.upstream.send(7)
        let mirror = try #require((subscription as? CustomReflectable)?.customMirror)
        #expect(mirror.children.map(\.label) == ["downstream", "downstreamDemand", "currentValue"])
        let children = Dictionary(uniqueKeysWithValues: mirror.children.map { ($0.label ?? "", $0.value) })
        #expect(children["downstreamDemand"] as? Subscribers.Demand == .max(2))
        #expect(children["currentValue"] as? Int == 7)
        #expect(children["downstream"] as? TestSubscriber<Int, TestError> === fixture.subscriber)
    }

    // MARK: Threads

    @Test func valuesFromSeveralThreadsWhileTheClockAdvancesStayConsistent() {
        let fixture = Fixture(dueTime: .ticks(3), initialDemand: .max(1_000))
        TimeOperatorChecks.sendFromSeveralThreadsWhileTheClockAdvances(
            to: fixture.upstream, clock: fixture.clock, perSender: 300, senderBase: 10_000
        )
        fixture.clock.advance(by: .ticks(10))
        #expect(fixture.clock.pendingCount == 0)
        fixture.upstream.send(completion: .finished)
        fixture.clock.advance(by: .ticks(10))
        let values = fixture.subscriber.values
        #expect(!values.isEmpty)
        #expect(values.count <= 1_000)
        #expect(values.allSatisfy { $0 % 10_000 < 300 && $0 / 10_000 < 4 })
        #expect(fixture.subscriber.completions.count == 1)
        #expect(fixture.subscriber.events.last == .completion(.finished))
    }
    /// As in Combine: a cancel before the upstream's subscription arrived does nothing.
    @Test func aCancelBeforeTheSubscriptionArrivesIsIgnored() {
        TimeOperatorChecks.aCancelBeforeTheSubscriptionIsIgnored {
            $0.debounce(for: .ticks(1), scheduler: VirtualScheduler())
        }
    }
}
