import Cadence
import Dispatch
import Testing

@Suite("Publishers.MeasureInterval")
struct MeasureIntervalTests {
    typealias Upstream = DrivenPublisher<String, TestError>
    typealias Recorder = TickRecordingSubscriber<VirtualTime.Stride, TestError>

    /// An upstream measured on `clock`, with a recording subscriber, subscribed at the clock's current tick.
    private func make(
        initialDemand: Subscribers.Demand = .unlimited,
        onValue: @escaping (VirtualTime.Stride) -> Subscribers.Demand = { _ in .none },
        clock: VirtualClock = VirtualClock()
    ) -> (VirtualClock, Upstream, Recorder) {
        let upstream = Upstream()
        let subscriber = Recorder(clock: clock, initialDemand: initialDemand, onValue: onValue)
        upstream.measureInterval(using: clock.scheduler).subscribe(subscriber)
        return (clock, upstream, subscriber)
    }

    @Test func theFirstValueMeasuresTheTimeSinceTheSubscriptionAndEachLaterOneTheTimeSinceThePrevious() {
        let clock = VirtualClock()
        clock.advance(to: .init(ticks: 3))
        let (_, upstream, subscriber) = make(clock: clock)
        clock.advance(to: .init(ticks: 14))
        #expect(upstream.send("a") == .none)
        clock.advance(to: .init(ticks: 17))
        upstream.send("b")
        upstream.send("c")
        clock.advance(to: .init(ticks: 18))
        upstream.send("d")
        #expect(
            subscriber.timeline == [
                "subscription@3", "11 ticks@14", "3 ticks@17", "0 ticks@17", "1 tick@18",
            ])
    }

    @Test func intervalsArriveAtOnceWithNothingScheduled() {
        let (clock, upstream, subscriber) = make()
        clock.advance(by: .ticks(2))
        upstream.send("a")
        #expect(subscriber.values == [.ticks(2)])
        #expect(clock.pendingCount == 0)
    }

    @Test func theCompletionGoesStraightThrough() {
        let (clock, upstream, subscriber) = make()
        clock.advance(by: .ticks(4))
        upstream.send(completion: .finished)
        #expect(subscriber.timeline == ["subscription@0", "finished@4"])
        _ = upstream.subscription.downstream.receive("late")
        upstream.subscription.downstream.receive(completion: .failure(.oops))
        #expect(subscriber.timeline == ["subscription@0", "finished@4"])
    }

    @Test func aFailureGoesStraightThrough() {
        let (_, upstream, subscriber) = make()
        upstream.send("a")
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.timeline == ["subscription@0", "0 ticks@0", "failure(oops)@0"])
    }

    @Test func demandGoesStraightThroughAndAPositiveAnswerIsRequestedNotReturned() {
        let (_, upstream, subscriber) = make(initialDemand: .max(1), onValue: { $0 == .ticks(0) ? .max(1) : .none })
        #expect(upstream.subscription.requests == [.max(1)])
        #expect(upstream.send("a") == .none)
        #expect(upstream.subscription.requests == [.max(1), .max(1)])
        subscriber.request(.max(5))
        #expect(upstream.subscription.requests == [.max(1), .max(1), .max(5)])
    }

    @Test func aNoneAnswerIsNotPassedOn() {
        let (clock, upstream, _) = make(initialDemand: .max(2))
        clock.advance(by: .ticks(1))
        upstream.send("a")
        #expect(upstream.subscription.requests == [.max(2)])
    }

    /// As in Combine, `request(.none)` is no misuse here: it does not trap.
    @Test func requestingNonePassesItOnAsCombineDoes() {
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<VirtualTime.Stride, TestError>(initialDemand: .none)
        upstream.measureInterval(using: VirtualScheduler()).subscribe(subscriber)
        subscriber.request(.none)
        #expect(upstream.subscription.requests == [.none])
    }

    @Test func cancellingStopsEveryLaterDelivery() {
        let (_, upstream, subscriber) = make()
        subscriber.cancel()
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(upstream.subscription.cancelCount == 1)
        #expect(upstream.subscription.requests == [.unlimited])
        #expect(upstream.subscription.downstream.receive("late") == .none)
        upstream.subscription.downstream.receive(completion: .finished)
        #expect(subscriber.timeline == ["subscription@0"])
    }

    @Test func aValueAfterACancelOrTheCompletionDoesNotReadTheSchedulersTime() {
        let scheduler = RecordingTestScheduler(clock: VirtualClock())
        let cancelled = Upstream()
        let cancelling = TestSubscriber<VirtualTime.Stride, TestError>()
        cancelled.measureInterval(using: scheduler).subscribe(cancelling)
        cancelled.send("measured")
        #expect(scheduler.nowReads.value == 2) // the subscription and the value
        cancelling.cancel()
        #expect(cancelled.subscription.downstream.receive("late") == .none)
        #expect(scheduler.nowReads.value == 2)

        let finished = Upstream()
        finished.measureInterval(using: scheduler).subscribe(TestSubscriber<VirtualTime.Stride, TestError>())
        finished.send(completion: .finished)
        #expect(finished.subscription.downstream.receive("late") == .none)
        #expect(scheduler.nowReads.value == 3) // its subscription only
    }

    @Test func theDownstreamStaysAfterACancelUntilTheSubscriptionGoes() {
        expectTheSubscriberStaysUntilTheSubscriptionGoes(ending: .cancel) {
            $0.measureInterval(using: VirtualScheduler())
        }
    }

    @Test func theDownstreamStaysAfterTheCompletionUntilTheSubscriptionGoes() {
        expectTheSubscriberStaysUntilTheSubscriptionGoes(ending: .finish) {
            $0.measureInterval(using: VirtualScheduler())
        }
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let (_, upstream, _) = make()
        let extra = Upstream()
        extra.subscribe(TestSubscriber<String, TestError>())
        upstream.subscription.downstream.receive(subscription: extra.subscription)
        #expect(extra.subscription.cancelCount == 1)
        #expect(upstream.subscription.cancelCount == 0)
    }

    @Test func describesItselfAsCombineDoes() throws {
        let (clock, upstream, subscriber) = make()
        let publisher = upstream.measureInterval(using: clock.scheduler)
        #expect(publisher.scheduler.clock === clock)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "MeasureInterval")
        #expect(
            (subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "MeasureInterval")
        #expect(Mirror(reflecting: subscription).children.isEmpty)
    }

    @Test func valuesFromSeveralThreadsWhileTheClockAdvancesAddUpToTheTimeMeasured() {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, Never>()
        let subscriber = TickRecordingSubscriber<VirtualTime.Stride, Never>(clock: clock)
        upstream.measureInterval(using: clock.scheduler).subscribe(subscriber)
        TimeOperatorChecks.sendFromSeveralThreadsWhileTheClockAdvances(to: upstream, clock: clock)
        let intervals = subscriber.values
        #expect(intervals.count == 1_000)
        // Each interval runs from the previous reading to this one, so together they span from the subscription
        // (tick 0) to the last reading, which is no later than now.
        let total = intervals.reduce(0) { $0 + $1.ticks }
        #expect(total >= 0 && total <= clock.now.ticks)
    }
    /// As in Combine: a cancel before the upstream's subscription arrived does nothing.
    @Test func aCancelBeforeTheSubscriptionArrivesIsIgnored() {
        TimeOperatorChecks.aCancelBeforeTheSubscriptionIsIgnored {
            $0.measureInterval(using: VirtualScheduler()).map { _ in 0 }
        }
    }
}
