import Cadence
import Foundation
import Testing

@Suite("Publishers.Timeout")
struct TimeoutTests {
    typealias Upstream = DrivenPublisher<Int, TestError>
    typealias Recorder = TickRecordingSubscriber<Int, TestError>

    /// An upstream with a timeout of `interval` on `clock`, with a recording subscriber, subscribed at the clock's
    /// current tick.
    private func make(
        interval: VirtualTime.Stride = .ticks(10),
        customError: (() -> TestError)? = nil,
        initialDemand: Subscribers.Demand = .unlimited,
        onValue: @escaping (Int) -> Subscribers.Demand = { _ in .none },
        clock: VirtualClock = VirtualClock()
    ) -> (VirtualClock, Upstream, Recorder) {
        let upstream = Upstream()
        let subscriber = Recorder(clock: clock, initialDemand: initialDemand, onValue: onValue)
        upstream.timeout(interval, scheduler: clock.scheduler, customError: customError).subscribe(subscriber)
        return (clock, upstream, subscriber)
    }

    // MARK: The deadline

    @Test func finishesExactlyTheIntervalAfterTheSubscriptionWhenNothingArrives() {
        let (clock, upstream, subscriber) = make()
        #expect(clock.pendingCount == 1)
        clock.advance(to: .init(ticks: 9))
        #expect(subscriber.timeline == ["subscription@0"])
        #expect(upstream.subscription.cancelCount == 0)
        clock.advance(to: .init(ticks: 10))
        #expect(subscriber.timeline == ["subscription@0", "finished@10"])
        #expect(upstream.subscription.cancelCount == 1)
        #expect(clock.pendingCount == 0)
    }

    @Test func failsWithTheCustomErrorMadeOnceAtTheDeadline() {
        let made = LockedBox(0)
        let (clock, upstream, subscriber) = make(customError: {
            made.mutate { $0 += 1 }
            return .oops
        })
        clock.advance(to: .init(ticks: 9))
        #expect(made.value == 0)
        clock.run()
        #expect(subscriber.timeline == ["subscription@0", "failure(oops)@10"])
        #expect(made.value == 1)
        #expect(upstream.subscription.cancelCount == 1)
        #expect(clock.now.ticks == 10)
    }

    @Test func aValueOneTickBeforeTheDeadlineStartsANewInterval() {
        let (clock, upstream, subscriber) = make()
        clock.advance(to: .init(ticks: 9))
        #expect(upstream.send(1) == .none)
        clock.advance(to: .init(ticks: 18))
        #expect(subscriber.timeline == ["subscription@0", "1@9"])
        clock.advance(to: .init(ticks: 19))
        #expect(subscriber.timeline == ["subscription@0", "1@9", "finished@19"])
    }

    @Test func aValueAtTheDeadlineTickCountsWhenTheClockRunsItBeforeTheTimer() {
        let clock = VirtualClock()
        let upstream = Upstream()
        clock.schedule(at: .init(ticks: 10)) { upstream.send(1) } // queued before the timer exists
        let subscriber = Recorder(clock: clock)
        upstream.timeout(.ticks(10), scheduler: clock.scheduler).subscribe(subscriber)
        clock.advance(to: .init(ticks: 19))
        #expect(subscriber.timeline == ["subscription@0", "1@10"])
        clock.advance(to: .init(ticks: 20))
        #expect(subscriber.timeline == ["subscription@0", "1@10", "finished@20"])
    }

    @Test func aValueAtTheDeadlineTickAfterTheTimerRanIsIgnored() {
        let (clock, upstream, subscriber) = make()
        let downstream = upstream.subscription.downstream
        clock.schedule(at: .init(ticks: 10)) { _ = downstream.receive(1) } // queued after the timer
        clock.run()
        #expect(subscriber.timeline == ["subscription@0", "finished@10"])
        #expect(clock.pendingCount == 0)
    }

    @Test func theFirstRequestStartsTheIntervalAgainButLaterOnesDoNot() {
        let (clock, upstream, subscriber) = make(initialDemand: .none)
        clock.advance(to: .init(ticks: 5))
        subscriber.request(.max(1))
        #expect(clock.pendingCount == 1)
        clock.advance(to: .init(ticks: 12))
        subscriber.request(.max(1))
        clock.advance(to: .init(ticks: 14))
        #expect(subscriber.timeline == ["subscription@0"])
        clock.advance(to: .init(ticks: 15))
        #expect(subscriber.timeline == ["subscription@0", "finished@15"])
        #expect(upstream.subscription.requests == [.max(1), .max(1)])
    }

    // MARK: Delivery on the scheduler

    @Test func valuesAreDeliveredOnTheSchedulerAtTheTickTheyArrive() {
        let (clock, upstream, subscriber) = make()
        clock.advance(to: .init(ticks: 3))
        upstream.send(1)
        upstream.send(2)
        #expect(subscriber.timeline == ["subscription@0"])
        clock.advance(by: .ticks(0))
        #expect(subscriber.timeline == ["subscription@0", "1@3", "2@3"])
    }

    @Test func theUpstreamsCompletionStopsTheTimerAndIsDeliveredOnTheScheduler() {
        let (clock, upstream, subscriber) = make()
        clock.advance(to: .init(ticks: 4))
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.timeline == ["subscription@0"])
        clock.run()
        #expect(subscriber.timeline == ["subscription@0", "1@4", "finished@4"])
        #expect(clock.now.ticks == 4)
        #expect(upstream.subscription.cancelCount == 0)
        #expect(clock.pendingCount == 0)
    }

    @Test func theUpstreamsFailureIsPassedOnNotReplacedByTheCustomError() {
        let (clock, upstream, subscriber) = make(customError: { .other })
        clock.advance(to: .init(ticks: 2))
        upstream.send(completion: .failure(.oops))
        upstream.send(completion: .finished)
        clock.run()
        #expect(subscriber.timeline == ["subscription@0", "failure(oops)@2"])
    }

    // MARK: Demand

    @Test func demandGoesStraightThroughAndAnswersReachTheUpstreamWhenTheValueIsDelivered() {
        let (clock, upstream, subscriber) = make(initialDemand: .max(1), onValue: { _ in .max(2) })
        #expect(upstream.subscription.requests == [.max(1)])
        #expect(upstream.send(1) == .none)
        #expect(upstream.subscription.requests == [.max(1)])
        clock.advance(by: .ticks(0))
        #expect(upstream.subscription.requests == [.max(1), .max(2)])
        subscriber.request(.max(3))
        #expect(upstream.subscription.requests == [.max(1), .max(2), .max(3)])
        #expect(subscriber.values == [1])
    }

    @Test func aNoneAnswerIsNotPassedOn() {
        let (clock, upstream, _) = make(initialDemand: .max(1))
        upstream.send(1)
        clock.advance(by: .ticks(1))
        #expect(upstream.subscription.requests == [.max(1)])
    }

    /// As in Combine, `request(.none)` is no misuse here: it does not trap.
    @Test func requestingNonePassesItOnAsCombineDoes() {
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        upstream.timeout(.ticks(1), scheduler: VirtualScheduler()).subscribe(subscriber)
        subscriber.request(.none)
        #expect(upstream.subscription.requests == [.none])
    }

    // MARK: Cancellation

    @Test func cancellingTakesTheTimerOffTheClockAndStopsEveryDelivery() {
        let (clock, upstream, subscriber) = make()
        clock.advance(to: .init(ticks: 5))
        upstream.send(1)
        #expect(clock.pendingCount == 2)
        subscriber.cancel()
        subscriber.cancel()
        #expect(upstream.subscription.cancelCount == 1)
        #expect(clock.pendingCount == 1) // the value's one-shot delivery action, now inert
        subscriber.request(.max(1))
        #expect(upstream.subscription.requests == [.unlimited])
        _ = upstream.subscription.downstream.receive(2)
        clock.run()
        #expect(subscriber.timeline == ["subscription@0"])
        #expect(clock.pendingCount == 0)
        #expect(clock.now.ticks == 5)
    }

    /// As in Combine: the upstream's subscription is kept until its completion has been delivered, so a cancel
    /// meanwhile reaches the upstream (and withholds that completion), and so does a request.
    @Test func cancellingWhileTheCompletionWaitsForDeliveryCancelsTheUpstreamAndWithholdsIt() {
        let (clock, upstream, subscriber) = make(customError: { .oops })
        upstream.send(completion: .finished)
        subscriber.request(.max(2))
        #expect(upstream.subscription.requests.last == .max(2))
        subscriber.cancel()
        clock.run()
        #expect(subscriber.timeline == ["subscription@0"])
        #expect(upstream.subscription.cancelCount == 1)
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let (clock, upstream, _) = make()
        let extra = Upstream()
        extra.subscribe(TestSubscriber<Int, TestError>())
        upstream.subscription.downstream.receive(subscription: extra.subscription)
        #expect(extra.subscription.cancelCount == 1)
        #expect(upstream.subscription.cancelCount == 0)
        #expect(clock.pendingCount == 1)
    }

    @Test func theDownstreamIsReleasedWhenItTimesOut() {
        weak var released: Recorder?
        let clock = VirtualClock()
        let upstream = Upstream()
        do {
            let subscriber = Recorder(clock: clock)
            released = subscriber
            upstream.timeout(.ticks(2), scheduler: clock.scheduler).subscribe(subscriber)
        }
        #expect(released != nil)
        clock.run()
        #expect(released == nil)
    }

    // MARK: Odd intervals

    @Test func aZeroIntervalTimesOutAtOnceBeforeAValueSentAtTheSameTick() {
        let messages = LockedBox<[String]>([])
        let clock = VirtualClock(reporter: .init { messages.append($0.message) })
        let (_, upstream, subscriber) = make(interval: .ticks(0), clock: clock)
        clock.advance(to: .init(ticks: 3))
        #expect(subscriber.timeline == ["subscription@0", "finished@0"])
        #expect(upstream.subscription.cancelCount == 1)
        #expect(messages.value == [])
    }

    @Test func aValueSentBeforeAZeroIntervalTimerRunsIsDropped() {
        let (clock, upstream, subscriber) = make(interval: .ticks(0))
        upstream.send(1)
        clock.advance(by: .ticks(0))
        #expect(subscriber.timeline == ["subscription@0", "finished@0"])
        #expect(clock.pendingCount == 0)
    }

    @Test func aNegativeIntervalTimesOutAtOnceAndReportsNothing() {
        let messages = LockedBox<[String]>([])
        let clock = VirtualClock(reporter: .init { messages.append($0.message) })
        clock.advance(to: .init(ticks: 7))
        let (_, _, subscriber) = make(interval: .ticks(-5), customError: { .oops }, clock: clock)
        #expect(subscriber.timeline == ["subscription@7"])
        clock.advance(by: .ticks(0))
        #expect(subscriber.timeline == ["subscription@7", "failure(oops)@7"])
        #expect(clock.pendingCount == 0)
        #expect(messages.value == [])
    }

    // MARK: Description

    @Test func describesItselfAsCombineDoes() throws {
        let (_, upstream, subscriber) = make()
        let publisher = upstream.timeout(.ticks(4), scheduler: VirtualScheduler(), customError: { .oops })
        #expect(publisher.interval == .ticks(4) && publisher.options == nil)
        #expect(publisher.customError?() == .oops)
        #expect(upstream.timeout(.ticks(4), scheduler: VirtualScheduler()).customError == nil)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Timeout")
        #expect(
            (subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Timeout")
        #expect(Mirror(reflecting: subscription).children.isEmpty)
    }

    // MARK: Threads

    @Test func valuesFromSeveralThreadsWhileTheClockAdvancesEndInOneCompletion() {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, Never>()
        let subscriber = TickRecordingSubscriber<Int, Never>(clock: clock)
        upstream.timeout(.ticks(50), scheduler: clock.scheduler).subscribe(subscriber)
        TimeOperatorChecks.sendFromSeveralThreadsWhileTheClockAdvances(to: upstream, clock: clock)
        clock.run()
        let values = subscriber.values
        #expect(Set(values).count == values.count)
        #expect(values.allSatisfy { (0..<1_000).contains($0) })
        #expect(subscriber.completions == 1)
        #expect(subscriber.timeline.last?.hasPrefix("finished@") == true)
        #expect(upstream.subscription.cancelCount == 1)
        #expect(clock.pendingCount == 0)
    }

    @Test func deliveriesRunningOnSeveralThreadsAtOnceStillGoOneAtATimeInOrder() {
        let scheduler = ThreadPoolScheduler()
        let upstream = DrivenPublisher<Int, Never>()
        let subscriber = SerialDeliveryCheckingSubscriber<Int>()
        upstream.timeout(.ticks(1), scheduler: scheduler).subscribe(subscriber)
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
            $0.timeout(.ticks(1), scheduler: VirtualScheduler())
        }
    }

    // MARK: A scheduler that runs the timer at once

    #if !canImport(Combine) // Combine traps here too, with a message of its own
    /// Combine starts the timer under a lock the timer's action takes: on `ImmediateScheduler`, which runs the
    /// action inside the call that schedules it, subscribing traps. Cadence stops there too, and says why.
    @Test func aTimeoutOnAnImmediateSchedulerTrapsWhenSubscribed() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            DrivenPublisher<Int, TestError>().timeout(5, scheduler: ImmediateScheduler.shared)
                .subscribe(TestSubscriber<Int, TestError>())
        }
        #expect(
            result?.standardErrorText.contains(
                """
                Timeout: the scheduler ran the timer at once, inside the call that scheduled it; a timeout needs a \
                scheduler that runs its timer later (not ImmediateScheduler)
                """) == true)
    }

    /// Only the thread inside the call is checked: a timer that runs on another thread while the call that
    /// scheduled it has not returned yet times out as usual. (Combine's timer would wait for the lock there, and
    /// this scheduler for the timer: the test cannot run on Combine.)
    @Test func aTimerRunningOnAnotherThreadWhileItIsBeingScheduledTimesOut() {
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.timeout(5, scheduler: OtherThreadScheduler()).subscribe(subscriber)
        #expect(subscriber.completions == [.finished])
        #expect(upstream.subscription.isCancelled)
    }
    #endif
}

#if !canImport(Combine)
/// A scheduler that runs every action on a thread of its own and waits for it before `schedule` returns: the action
/// runs while the call that scheduled it is still under way, but not on the caller's thread.
private struct OtherThreadScheduler: Scheduler {
    typealias SchedulerTimeType = ImmediateScheduler.SchedulerTimeType
    typealias SchedulerOptions = Never

    var now: SchedulerTimeType { ImmediateScheduler.shared.now }
    var minimumTolerance: SchedulerTimeType.Stride { .zero }

    private func runOnAnotherThread(_ action: @escaping () -> Void) {
        let box = UncheckedAction(action)
        let done = DispatchSemaphore(value: 0)
        Thread {
            box.action()
            done.signal()
        }.start()
        done.wait()
    }

    func schedule(options: Never?, _ action: @escaping () -> Void) {
        runOnAnotherThread(action)
    }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
        _ action: @escaping () -> Void
    ) {
        runOnAnotherThread(action)
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride, options: Never?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        runOnAnotherThread(action)
        return AnyCancellable {}
    }
}

/// An action handed to another thread that the test waits for: never run on two threads at once.
private struct UncheckedAction: @unchecked Sendable {
    let action: () -> Void

    init(_ action: @escaping () -> Void) {
        self.action = action
    }
}
#endif
