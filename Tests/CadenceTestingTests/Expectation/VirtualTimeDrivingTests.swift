import Dispatch
import Testing

@testable import CadenceTesting

/// How a step drives its virtual clock (PublisherExpectation+Driving.swift): budgets, `.ticks(0)`, where the clock is
/// left, waiting until idle, runaway clocks, no clock, publishers that subscribe late or never, and used-up demand.
@Suite struct VirtualTimeDrivingTests {
    /// A publisher that never hands its subscriber a subscription.
    struct SilentPublisher: Publisher {
        typealias Output = Int
        typealias Failure = Never

        func receive<S: Subscriber>(subscriber _: S) where S.Failure == Never, S.Input == Int {}
    }

    /// A publisher that subscribes its subscriber to `Just(value)` only at `tick` of `clock`.
    struct SubscribingAtTick: Publisher {
        typealias Output = Int
        typealias Failure = Never

        let clock: VirtualClock
        let tick: Int64
        let value: Int

        func receive<S: Subscriber>(subscriber: S) where S.Failure == Never, S.Input == Int {
            let value = value
            clock.schedule(at: VirtualClock.Instant(ticks: tick)) { Just(value).receive(subscriber: subscriber) }
        }
    }

    // MARK: Budgets are inclusive

    @Test func anEventAtTheEndOfTheBudgetPasses() {
        let clock = VirtualClock()
        clock.advance(by: .ticks(10))
        expectNoFailures {
            expect(scheduledSubject(on: clock, [(15, 1)]), on: clock).toEmit(1, within: .ticks(5))
        }
        #expect(clock.now.ticks == 15)
    }

    @Test func anEventOneTickAfterTheBudgetIsLate() {
        let clock = VirtualClock()
        clock.advance(by: .ticks(10))
        expectFailures([
            """
            toEmit(1, within: .ticks(5)) failed: the value (1) did not arrive within 5 ticks (by tick 15); it arrived \
            at tick 16, 1 tick late.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit(1, within: .ticks(5))

                 tick  received      expected
                   10  subscription
              →    15  (nothing)     1         toEmit(1, within: .ticks(5))
                   16  1
            """
        ]) {
            expect(scheduledSubject(on: clock, [(16, 1)]), on: clock).toEmit(1, within: .ticks(5))
        }
    }

    @Test func lateIsCountedFromTheDeadlineAcrossWorkThatSendsNothing() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEmit([1, 2], within: .ticks(5)) failed: value 2 of 2 (2) did not arrive within 5 ticks (by tick 5); it \
            arrived at tick 8, 3 ticks late.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit([1, 2], within: .ticks(5))

                 tick  received      expected
                    0  subscription
                    3  1             1         toEmit([1, 2], within: .ticks(5))
              →     5  (nothing)     2         toEmit([1, 2], within: .ticks(5))
                    8  2
            """
        ]) {
            let subject = scheduledSubject(on: clock, [(3, 1), (8, 2)])
            clock.schedule(at: VirtualClock.Instant(ticks: 6)) {}
            clock.schedule(at: VirtualClock.Instant(ticks: 7)) {}
            expect(subject, on: clock).toEmit([1, 2], within: .ticks(5))
        }
    }

    @Test func aSecondsBudgetIsAThousandTicksAPerSecond() {
        let clock = VirtualClock()
        expectNoFailures {
            expect(scheduledSubject(on: clock, [(2000, "late"), (2001, "later")]), on: clock)
                .toEmit("late", within: .seconds(2)).thenEmit("later", within: .milliseconds(1))
        }
    }

    // MARK: .ticks(0)

    @Test func zeroTicksRunsTheWorkAlreadyDueNow() {
        let clock = VirtualClock()
        clock.advance(by: .ticks(5))
        let subject = PassthroughSubject<Int, Never>()
        expectNoFailures {
            let expectation = expect(subject, on: clock)
            clock.scheduler.schedule { subject.send(1) }
            expectation.toEmit(1, within: .ticks(0))
            #expect(clock.now.ticks == 5)
        }
    }

    @Test func zeroTicksPassesForWhatAlreadyArrived() {
        let clock = VirtualClock()
        expectNoFailures {
            expect(Just(1), on: clock).toEmit(1, within: .ticks(0)).thenFinish(within: .ticks(0))
        }
        #expect(clock.now.ticks == 0)
    }

    @Test func zeroTicksDoesNotWaitForTheNextTick() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEmit(1, within: .ticks(0)) failed: the value (1) did not arrive within 0 ticks (by tick 0); it arrived \
            at tick 1, 1 tick late.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit(1, within: .ticks(0))

                 tick  received      expected
                    0  subscription
              →     0  (nothing)     1         toEmit(1, within: .ticks(0))
                    1  1
            """
        ]) {
            expect(scheduledSubject(on: clock, [(1, 1)]), on: clock).toEmit(1, within: .ticks(0))
        }
    }

    // MARK: Where the clock is left

    @Test func theClockStopsAtTheTickWhereTheStepSettled() {
        let clock = VirtualClock()
        let subject = scheduledSubject(on: clock, [(3, 1), (10, 2)])
        expectNoFailures {
            let expectation = expect(subject, on: clock).toEmit(1, within: .ticks(50))
            #expect(clock.now.ticks == 3)
            expectation.thenEmit(2)
            #expect(clock.now.ticks == 10)
        }
    }

    @Test func aStepWhoseBudgetRunsOutLeavesTheClockAtItsDeadline() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEmit(1, within: .ticks(5)) failed: the value (1) did not arrive within 5 ticks (by tick 5).

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit(1, within: .ticks(5))

                 tick  received      expected
                    0  subscription
              →     5  (nothing)     1         toEmit(1, within: .ticks(5))
            """
        ]) {
            expect(PassthroughSubject<Int, Never>(), on: clock).toEmit(1, within: .ticks(5))
        }
        #expect(clock.now.ticks == 5)
    }

    @Test func aStepStartsAtTheClocksNow() {
        let clock = VirtualClock()
        let subject = scheduledSubject(on: clock, [(4, 1), (12, 2)])
        expectNoFailures {
            let expectation = expect(subject, on: clock).toEmit(1)
            clock.advance(by: .ticks(6))
            expectation.thenEmit(2, within: .ticks(2))
        }
        #expect(clock.now.ticks == 12)
    }

    // MARK: Without a budget

    @Test func withoutABudgetTheClockRunsUntilTheStepSettles() {
        let clock = VirtualClock()
        expectNoFailures {
            let subject = scheduledSubject(on: clock, [(100_000, 1), (200_000, 2)])
            expect(subject, on: clock).toEmit(1)
            #expect(clock.now.ticks == 100_000)
        }
    }

    @Test func withoutABudgetAStepFailsWhenTheClockGoesIdle() {
        let clock = VirtualClock()
        expectFailures([
            """
            thenEmit(2) failed: the value (2) never arrived: the clock went idle at tick 40 with nothing scheduled — work on a real DispatchQueue, RunLoop or URLSession never runs on virtual time.

                expect(PassthroughSubject<Int, Never>)
              ✓   .toEmit(1)
              ✗   .thenEmit(2)

                 tick  received      expected
                    0  subscription
                   30  1             1         toEmit(1)
              →    40  (nothing)     2         thenEmit(2)
            """
        ]) {
            let subject = scheduledSubject(on: clock, [(30, 1)])
            clock.schedule(at: VirtualClock.Instant(ticks: 40)) {}
            expect(subject, on: clock).toEmit(1).thenEmit(2)
        }
    }

    @Test func theDefaultStepActionLimitIsTheClocksDefault() {
        #expect(DrivingLimits.stepActions == VirtualClock.defaultActionLimit)
        DrivingLimits.$stepActions.withValue(7) {
            #expect(PublisherExpectation<Int, Never>.stepActionLimit == 7)
        }
    }

    @Test func anEndlessTimerWithoutABudgetIsARunaway() {
        let clock = VirtualClock()
        let timer = clock.schedule(at: VirtualClock.Instant(ticks: 1), every: .ticks(1)) {}
        defer { timer.cancel() }
        DrivingLimits.$stepActions.withValue(100) {
            expectFailures([
                """
                toEmit(1) failed: the value (1) never arrived: the clock still had work due after running 100 \
                actions (at tick 100) — an endless timer, or work that keeps rescheduling itself? Cancel it, or give \
                the step a budget with within:.

                    expect(PassthroughSubject<Int, Never>)
                  ✗   .toEmit(1)

                     tick  received      expected
                        0  subscription
                  →   100  (nothing)     1         toEmit(1)
                """
            ]) {
                expect(PassthroughSubject<Int, Never>(), on: clock).toEmit(1)
            }
        }
        #expect(clock.now.ticks == 100)
    }

    @Test func aWindowThatCannotBeCheckedToItsEndSaysSo() {
        let clock = VirtualClock()
        let timer = clock.schedule(at: VirtualClock.Instant(ticks: 1), every: .ticks(1)) {}
        defer { timer.cancel() }
        DrivingLimits.$stepActions.withValue(50) {
            expectFailures([
                """
                toEmitNothing(for: .seconds(2)) failed: its window could not be checked to its end (tick 2000): the \
                clock still had work due after running 50 actions (at tick 50) — an endless timer, or work that keeps \
                rescheduling itself? Cancel it, or check a shorter window.

                    expect(PassthroughSubject<Int, Never>)
                  ✗   .toEmitNothing(for: .seconds(2))

                     tick  received      expected
                        0  subscription
                  →    50  (nothing)     nothing through tick 2000  toEmitNothing(for: .seconds(2))
                """
            ]) {
                expect(PassthroughSubject<Int, Never>(), on: clock).toEmitNothing(for: .seconds(2))
            }
        }
        #expect(clock.now.ticks == 50)
    }

    @Test func aRunawayAfterSomeValuesSaysWhichValueIsMissing() {
        let clock = VirtualClock()
        let subject = scheduledSubject(on: clock, [(1, 1)])
        let timer = clock.schedule(at: VirtualClock.Instant(ticks: 1), every: .ticks(1)) {}
        defer { timer.cancel() }
        DrivingLimits.$stepActions.withValue(100) {
            expectFailures([
                """
                toEmit([1, 2]) failed: value 2 of 2 (2) never arrived: the clock still had work due after running \
                100 actions (at tick 99) — an endless timer, or work that keeps rescheduling itself? Cancel it, or \
                give the step a budget with within:.

                    expect(PassthroughSubject<Int, Never>)
                  ✗   .toEmit([1, 2])

                     tick  received      expected
                        0  subscription
                        1  1             1         toEmit([1, 2])
                  →    99  (nothing)     2         toEmit([1, 2])
                """
            ]) {
                expect(subject, on: clock).toEmit([1, 2])
            }
        }
    }

    @Test func anEndlessTimerWithAHugeBudgetIsARunawayToo() {
        let clock = VirtualClock()
        let timer = clock.schedule(at: VirtualClock.Instant(ticks: 1), every: .ticks(1)) {}
        defer { timer.cancel() }
        DrivingLimits.$stepActions.withValue(50) {
            expectFailures([
                """
                toEmit(count: 1, within: .seconds(60)) failed: a value never arrived: the clock still had work due \
                after running 50 actions (at tick 50) — an endless timer, or work that keeps rescheduling itself? \
                Cancel it, or give the step a shorter budget.

                    expect(PassthroughSubject<Int, Never>)
                  ✗   .toEmit(count: 1, within: .seconds(60))

                     tick  received      expected
                        0  subscription
                  →    50  (nothing)     (any value)  toEmit(count: 1, within: .seconds(60))
                """
            ]) {
                expect(PassthroughSubject<Int, Never>(), on: clock).toEmit(count: 1, within: .seconds(60))
            }
        }
    }

    @Test func aStepThatSettlesOnTheLastAllowedActionPasses() {
        let clock = VirtualClock()
        let subject = PassthroughSubject<Int, Never>()
        var ticks = 0
        let timer = clock.schedule(at: VirtualClock.Instant(ticks: 1), every: .ticks(1)) {
            ticks += 1
            if ticks == 10 { subject.send(10) }
        }
        defer { timer.cancel() }
        DrivingLimits.$stepActions.withValue(10) {
            expectNoFailures {
                expect(subject, on: clock).toEmit(10)
            }
        }
    }

    // MARK: No clock

    @Test func withoutAClockOnlyWhatArrivesSynchronouslyCounts() {
        expectNoFailures {
            expect(Just(1)).toEmit(1).thenFinish()
        }
        let scheduler = DispatchQueue.test
        expectFailures([
            """
            toEmit(1) failed: the value (1) never arrived: nothing more was delivered synchronously, and there is no \
            virtual clock to advance (pass one with on:, or bind VirtualClock.current).

                expect(Publishers.Delay<…>)
              ✗   .toEmit(1)

                 received      expected
                 subscription
              →  (nothing)     1         toEmit(1)
            """
        ]) {
            expect(Just(1).delay(for: .milliseconds(5), scheduler: scheduler)).toEmit(1)
        }
        #expect(scheduler.clock.now.ticks == 0)
    }

    @Test func theTasksCurrentClockIsUsedWhenNoneIsPassed() {
        let clock = VirtualClock()
        VirtualClock.$current.withValue(clock) {
            expectNoFailures {
                expect(Just(1).delay(for: .milliseconds(5), scheduler: DispatchQueue.test)).toEmit(1).thenFinish()
            }
        }
        #expect(clock.now.ticks == 5)
    }

    @Test func aTestSchedulersClockIsDrivenWhenTheSchedulerIsPassed() {
        let scheduler = DispatchQueue.test
        expectNoFailures {
            expect(Just(1).delay(for: .milliseconds(5), scheduler: scheduler), on: scheduler)
                .toEmit(1, within: .milliseconds(5)).thenFinish(within: .ticks(0))
        }
        #expect(scheduler.clock.now.ticks == 5)
    }

    // MARK: Subscriptions that come late or never

    @Test func aPublisherThatNeverSubscribes() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEmit(1) failed: the value (1) never arrived: the publisher never sent a subscription.

                expect(VirtualTimeDrivingTests.SilentPublisher)
              ✗   .toEmit(1)

                 tick  received   expected
              →     0  (nothing)  1         toEmit(1)
            """,
            """
            toEmit(count: 1) failed: a value never arrived: the publisher never sent a subscription, and there is no \
            virtual clock to advance (pass one with on:, or bind VirtualClock.current).

                expect(VirtualTimeDrivingTests.SilentPublisher)
              ✗   .toEmit(count: 1)

                 received   expected
              →  (nothing)  (any value)  toEmit(count: 1)
            """,
        ]) {
            expect(SilentPublisher(), on: clock).toEmit(1)
            expect(SilentPublisher()).toEmit(count: 1)
        }
    }

    @Test func aSubscriptionThatArrivesOnTheClock() {
        let clock = VirtualClock()
        expectNoFailures {
            let expectation = expect(Just(1).subscribe(on: clock.scheduler), on: clock)
            #expect(expectation.events.isEmpty)
            expectation.toEmit(1).thenFinish()
            expect(Just(2).subscribe(on: clock.scheduler), on: clock).toEmit(2, within: .ticks(0)).thenFinish()
            expect(SubscribingAtTick(clock: clock, tick: 7, value: 3), on: clock).toEmit(3, within: .ticks(7))
                .thenFinish(within: .ticks(0))
        }
        #expect(clock.now.ticks == 7)
    }

    @Test func aSubscriptionThatArrivesAfterTheBudget() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEmit(3, within: .ticks(2)) failed: the value (3) did not arrive within 2 ticks (by tick 2), and the \
            publisher had not sent a subscription by then; it arrived at tick 4, 2 ticks late.

                expect(VirtualTimeDrivingTests.SubscribingAtTick)
              ✗   .toEmit(3, within: .ticks(2))

                 tick  received      expected
              →     2  (nothing)     3         toEmit(3, within: .ticks(2))
                    4  subscription
                    4  3
                    4  finished
            """
        ]) {
            expect(SubscribingAtTick(clock: clock, tick: 4, value: 3), on: clock).toEmit(3, within: .ticks(2))
        }
    }

    @Test func aSubscriptionOnASchedulerWithoutAClock() {
        expectFailures([
            """
            toEmit(1) failed: the value (1) never arrived: the publisher never sent a subscription, and there is no \
            virtual clock to advance (pass one with on:, or bind VirtualClock.current).

                expect(Publishers.SubscribeOn<…>)
              ✗   .toEmit(1)

                 received   expected
              →  (nothing)  1         toEmit(1)
            """
        ]) {
            expect(Just(1).subscribe(on: VirtualClock().scheduler)).toEmit(1)
        }
    }

    // MARK: Used-up demand

    @Test func aMissingValueWithTheDemandUsedUpSaysSo() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEmit([1, 2]) failed: value 2 of 2 (2) never arrived: the subscriber had no \
            demand left (.max(1) requested in all) — request more with \
            thenRequest(_:).

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit([1, 2])

                 tick  received      expected
                    0  subscription
                    1  1             1         toEmit([1, 2])
              →     2  (nothing)     2         toEmit([1, 2])
            """,
            """
            toEmit(1, within: .ticks(3)) failed: the value (1) did not arrive within 3 ticks (by tick 3); the \
            subscriber had no demand left (.none requested in all) — request more with thenRequest(_:).

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit(1, within: .ticks(3))

                 tick  received      expected
                    0  subscription
              →     3  (nothing)     1         toEmit(1, within: .ticks(3))
            """,
        ]) {
            expect(scheduledSubject(on: clock, [(1, 1), (2, 2)]), on: clock, demand: .max(1)).toEmit([1, 2])
            let other = VirtualClock()
            expect(scheduledSubject(on: other, [(3, 1)]), on: other, demand: .none).toEmit(1, within: .ticks(3))
        }
    }

    @Test func aMissingValueWithDemandLeftSaysNothingAboutDemand() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEmit([1, 2]) failed: value 2 of 2 (2) never arrived: the clock went idle at tick 1 with nothing \
            scheduled — work on a real DispatchQueue, RunLoop or URLSession never runs on virtual time.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit([1, 2])

                 tick  received      expected
                    0  subscription
                    1  1             1         toEmit([1, 2])
              →     1  (nothing)     2         toEmit([1, 2])
            """
        ]) {
            expect(scheduledSubject(on: clock, [(1, 1)]), on: clock, demand: .max(2)).toEmit([1, 2])
        }
    }

    /// The likeliest cause of an idle clock with no want of demand — work on a real scheduler — is named (issue 19
    /// item 1, issue 20 item 7: `receive(on: RunLoop.main)` under `swift test` timed out with no hint).
    @Test func anIdleClockNamesTheRealSchedulersItCannotRun() {
        let clock = VirtualClock()
        let failures = recordingFailures {
            expect(Just(1).delay(for: .seconds(60), scheduler: DispatchQueue(label: "a real queue")), on: clock)
                .toEmit(1)
        }
        #expect(
            failures.map { String($0.message.prefix { $0 != "\n" }) } == [
                "toEmit(1) failed: the value (1) never arrived: the clock went idle at tick 0 with nothing scheduled — "
                    + "work on a real DispatchQueue, RunLoop or URLSession never runs on virtual time."
            ])
    }
}
