import Cadence
import Dispatch
import Testing

@Suite("Publishers.Delay")
struct DelayTests {
    typealias Upstream = DrivenPublisher<Int, TestError>
    typealias Recorder = TickRecordingSubscriber<Int, TestError>

    /// An upstream delayed by `interval` on a fresh clock, with a recording subscriber, subscribed at tick 0.
    private func make(
        interval: VirtualTime.Stride = .ticks(5),
        initialDemand: Subscribers.Demand = .unlimited,
        onValue: @escaping (Int) -> Subscribers.Demand = { _ in .none },
        clock: VirtualClock = VirtualClock()
    ) -> (VirtualClock, Upstream, Recorder) {
        let upstream = Upstream()
        let subscriber = Recorder(clock: clock, initialDemand: initialDemand, onValue: onValue)
        upstream.delay(for: interval, scheduler: clock.scheduler).subscribe(subscriber)
        return (clock, upstream, subscriber)
    }

    // MARK: Values and completion

    @Test func theSubscriptionArrivesAtOnceAndNothingIsScheduledForIt() {
        let (clock, upstream, subscriber) = make()
        #expect(subscriber.timeline == ["subscription@0"])
        #expect(upstream.subscription.requests == [.unlimited])
        #expect(clock.pendingCount == 0)
    }

    @Test func eachValueArrivesExactlyTheIntervalAfterItWasSent() {
        let (clock, upstream, subscriber) = make()
        #expect(upstream.send(1) == .none)
        clock.advance(by: .ticks(3))
        upstream.send(2)
        #expect(clock.pendingCount == 2)
        clock.advance(to: .init(ticks: 4))
        #expect(subscriber.timeline == ["subscription@0"])
        clock.advance(to: .init(ticks: 5))
        #expect(subscriber.timeline == ["subscription@0", "1@5"])
        clock.advance(to: .init(ticks: 7))
        #expect(subscriber.timeline == ["subscription@0", "1@5"])
        clock.advance(to: .init(ticks: 8))
        #expect(subscriber.timeline == ["subscription@0", "1@5", "2@8"])
        #expect(clock.pendingCount == 0)
    }

    @Test func valuesSentAtOneTickArriveTogetherInOrder() {
        let (clock, upstream, subscriber) = make(interval: .ticks(2))
        for value in 1...5 { upstream.send(value) }
        clock.advance(by: .ticks(2))
        #expect(subscriber.values == [1, 2, 3, 4, 5])
        #expect(subscriber.timeline.last == "5@2")
    }

    @Test func finishingIsDelayedLikeTheValues() {
        let (clock, upstream, subscriber) = make()
        upstream.send(1)
        clock.advance(by: .ticks(2))
        upstream.send(completion: .finished)
        clock.advance(to: .init(ticks: 6))
        #expect(subscriber.timeline == ["subscription@0", "1@5"])
        clock.advance(to: .init(ticks: 7))
        #expect(subscriber.timeline == ["subscription@0", "1@5", "finished@7"])
    }

    @Test func aFailureIsDelayedTooAndComesAfterTheValuesBeforeIt() {
        let (clock, upstream, subscriber) = make()
        upstream.send(1)
        clock.advance(by: .ticks(1))
        upstream.send(completion: .failure(.oops))
        clock.advance(by: .ticks(4))
        #expect(subscriber.timeline == ["subscription@0", "1@5"])
        clock.advance(by: .ticks(1))
        #expect(subscriber.timeline == ["subscription@0", "1@5", "failure(oops)@6"])
        #expect(upstream.subscription.cancelCount == 0)
    }

    @Test func eventsAfterTheUpstreamsCompletionAreIgnored() {
        let (clock, upstream, subscriber) = make()
        upstream.send(completion: .finished)
        let downstream = upstream.subscription.downstream
        #expect(downstream.receive(9) == .none)
        downstream.receive(completion: .failure(.oops))
        #expect(clock.pendingCount == 1)
        clock.run()
        #expect(subscriber.timeline == ["subscription@0", "finished@5"])
        subscriber.request(.max(3))
        #expect(upstream.subscription.requests == [.unlimited])
    }

    // MARK: Demand

    @Test func demandGoesStraightThroughAndAnswersReachTheUpstreamWhenTheValueIsDelivered() {
        let (clock, upstream, subscriber) = make(initialDemand: .max(1), onValue: { $0 == 1 ? .max(2) : .none })
        #expect(upstream.subscription.requests == [.max(1)])
        #expect(upstream.send(1) == .none)
        clock.advance(by: .ticks(4))
        #expect(upstream.subscription.requests == [.max(1)])
        clock.advance(by: .ticks(1))
        #expect(upstream.subscription.requests == [.max(1), .max(2)])
        upstream.send(2)
        clock.advance(by: .ticks(5))
        #expect(upstream.subscription.requests == [.max(1), .max(2)])
        subscriber.request(.max(7))
        #expect(upstream.subscription.requests == [.max(1), .max(2), .max(7)])
        #expect(subscriber.values == [1, 2])
        #expect(upstream.subscription.answered == [.none, .none])
    }

    /// As in Combine, `request(.none)` is no misuse here: it does not trap.
    @Test func requestingNonePassesItOnAsCombineDoes() {
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        upstream.delay(for: .ticks(1), scheduler: VirtualScheduler()).subscribe(subscriber)
        subscriber.request(.none)
        #expect(upstream.subscription.requests == [.none])
    }

    // MARK: Cancellation

    @Test func cancellingStopsEveryLaterDeliveryAndLeavesTheScheduledWorkInert() {
        let (clock, upstream, subscriber) = make()
        upstream.send(1)
        clock.advance(by: .ticks(2))
        upstream.send(2)
        subscriber.cancel()
        subscriber.cancel()
        #expect(upstream.subscription.cancelCount == 1)
        #expect(clock.pendingCount == 2)
        subscriber.request(.max(1))
        #expect(upstream.subscription.requests == [.unlimited])
        clock.run()
        #expect(subscriber.timeline == ["subscription@0"])
        #expect(clock.pendingCount == 0)
        #expect(clock.now.ticks == 7)
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func cancellingAfterTheUpstreamFinishedWithholdsThatCompletion() {
        let (clock, upstream, subscriber) = make()
        upstream.send(completion: .finished)
        clock.advance(by: .ticks(1))
        subscriber.cancel()
        #expect(upstream.subscription.cancelCount == 0)
        clock.run()
        #expect(subscriber.timeline == ["subscription@0"])
    }
    #endif

    @Test func theDownstreamStaysAfterACancelUntilTheSubscriptionGoes() {
        let clock = VirtualClock()
        expectTheSubscriberStaysUntilTheSubscriptionGoes(ending: .cancel, drive: { clock.run() }) {
            $0.delay(for: .ticks(1), scheduler: clock.scheduler)
        }
    }

    @Test func theDownstreamStaysAfterTheCompletionUntilTheSubscriptionGoes() {
        let clock = VirtualClock()
        expectTheSubscriberStaysUntilTheSubscriptionGoes(ending: .finish, drive: { clock.run() }) {
            $0.delay(for: .ticks(1), scheduler: clock.scheduler)
        }
    }

    /// A delivery action left on the scheduler by a cancel does not hold the subscription (issue 20), so nothing
    /// but the upstream keeps the downstream.
    @Test func aCancelledDeliveryActionDoesNotHoldTheDownstream() {
        weak var cancelled: TestSubscriber<Int, TestError>?
        let clock = VirtualClock()
        var upstream: Upstream? = Upstream()
        do {
            let subscriber = TestSubscriber<Int, TestError>()
            cancelled = subscriber
            upstream?.delay(for: .ticks(1), scheduler: clock.scheduler).subscribe(subscriber)
            _ = upstream?.subscription.downstream.receive(1)
            subscriber.cancel()
            subscriber.releaseSubscription()
        }
        #expect(clock.pendingCount == 1)
        #expect(cancelled != nil)
        upstream = nil
        #expect(cancelled == nil)
        #expect(clock.pendingCount == 1)
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let (_, upstream, _) = make()
        let extra = Upstream()
        let stray = TestSubscriber<Int, TestError>()
        extra.subscribe(stray)
        upstream.subscription.downstream.receive(subscription: extra.subscription)
        #expect(extra.subscription.cancelCount == 1)
        #expect(upstream.subscription.cancelCount == 0)
    }

    // MARK: Odd intervals

    @Test func aZeroIntervalDeliversAtTheSameTickButNeverInsideTheUpstreamsCall() {
        let (clock, upstream, subscriber) = make(interval: .ticks(0))
        clock.advance(by: .ticks(3))
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.timeline == ["subscription@0"])
        clock.advance(by: .ticks(0))
        #expect(subscriber.timeline == ["subscription@0", "1@3", "finished@3"])
    }

    @Test func aNegativeIntervalActsAsZeroAndReportsNothing() {
        let messages = LockedBox<[String]>([])
        let clock = VirtualClock(reporter: .init { messages.append($0.message) })
        let (_, upstream, subscriber) = make(interval: .ticks(-10), clock: clock)
        clock.advance(by: .ticks(2))
        upstream.send(1)
        #expect(subscriber.values == [])
        clock.advance(by: .ticks(0))
        #expect(subscriber.timeline == ["subscription@0", "1@2"])
        #expect(messages.value == [])
    }

    @Test func aNegativeToleranceIsReportedByTheTestSchedulerAndIgnored() {
        let messages = LockedBox<[String]>([])
        let clock = VirtualClock(reporter: .init { messages.append($0.message) })
        let upstream = Upstream()
        let subscriber = Recorder(clock: clock)
        upstream.delay(for: .ticks(2), tolerance: .ticks(-1), scheduler: clock.scheduler).subscribe(subscriber)
        upstream.send(1)
        clock.run()
        #expect(subscriber.timeline == ["subscription@0", "1@2"])
        #expect(
            messages.value == [
                "TestScheduler.schedule(after:tolerance:options:_:) was given a negative tolerance (-1 tick); a "
                    + "tolerance must not be negative, and virtual time ignores it."
            ])
    }

    @Test func aValueSentFromInsideADeliveryWaitsForItsOwnInterval() {
        let upstream = Upstream()
        let clock = VirtualClock()
        let subscriber = Recorder(
            clock: clock,
            onValue: { value in
                if value < 3 { upstream.send(value + 1) }
                return .none
            })
        upstream.delay(for: .ticks(2), scheduler: clock.scheduler).subscribe(subscriber)
        upstream.send(1)
        clock.run()
        #expect(subscriber.timeline == ["subscription@0", "1@2", "2@4", "3@6"])
    }

    // MARK: Description

    /// As in Combine, the subscription does not describe itself: it has no `description`, `customMirror` or
    /// `playgroundDescription` of its own.
    @Test func hasNoDescriptionOfItsOwnAsInCombine() throws {
        let (_, upstream, subscriber) = make()
        let publisher = upstream.delay(for: .ticks(3), tolerance: .ticks(1), scheduler: VirtualScheduler())
        #expect(publisher.interval == .ticks(3) && publisher.tolerance == .ticks(1) && publisher.options == nil)
        #expect(upstream.delay(for: .ticks(3), scheduler: VirtualScheduler()).tolerance == .ticks(0))
        let subscription = try #require(subscriber.subscription)
        #expect(!(subscription is any CustomStringConvertible))
        #expect(!(subscription is any CustomReflectable))
        #expect(!(subscription is any CustomPlaygroundDisplayConvertible))
    }

    // MARK: Threads

    @Test func valuesFromSeveralThreadsWhileTheClockAdvancesAllArriveOnce() {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, Never>()
        let subscriber = TickRecordingSubscriber<Int, Never>(clock: clock)
        upstream.delay(for: .ticks(3), scheduler: clock.scheduler).subscribe(subscriber)
        TimeOperatorChecks.sendFromSeveralThreadsWhileTheClockAdvances(to: upstream, clock: clock)
        upstream.send(completion: .finished)
        clock.run()
        #expect(subscriber.values.sorted() == Array(0..<1_000))
        #expect(subscriber.completions == 1)
        #expect(subscriber.timeline.last?.hasPrefix("finished@") == true)
        #expect(clock.pendingCount == 0)
    }

    @Test func actionsRunningOnSeveralThreadsAtOnceStillDeliverOneAtATimeInOrder() {
        let scheduler = ThreadPoolScheduler()
        let upstream = DrivenPublisher<Int, Never>()
        let subscriber = SerialDeliveryCheckingSubscriber<Int>()
        upstream.delay(for: .ticks(1), scheduler: scheduler).subscribe(subscriber)
        for value in 0..<500 { upstream.send(value) }
        upstream.send(completion: .finished)
        scheduler.group.wait()
        #expect(subscriber.overlaps == 0)
        #expect(subscriber.values == Array(0..<500))
        #expect(subscriber.completions == 1)
        #expect(subscriber.lateEvents == 0)
    }
    /// As in Combine: a cancel before the upstream's subscription arrived does nothing.
    @Test func aCancelBeforeTheSubscriptionArrivesIsIgnored() {
        TimeOperatorChecks.aCancelBeforeTheSubscriptionIsIgnored {
            $0.delay(for: .ticks(1), scheduler: VirtualScheduler())
        }
    }

    /// As in Combine: while the upstream's completion waits for its interval, what the downstream answers a value
    /// delivered meanwhile still reaches the upstream; its own requests no longer do.
    @Test func demandAnsweredWhileTheCompletionWaitsStillReachesTheUpstream() {
        let (clock, upstream, subscriber) = make(initialDemand: .max(1), onValue: { _ in .max(3) })
        upstream.send(1)
        upstream.send(completion: .finished)
        subscriber.request(.max(2))
        clock.run()
        #expect(subscriber.timeline == ["subscription@0", "1@5", "finished@5"])
        #expect(upstream.subscription.requests == [.max(1), .max(3)])
        #expect(upstream.subscription.cancelCount == 0)
    }
}
