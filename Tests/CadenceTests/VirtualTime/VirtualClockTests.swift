import Cadence
import Testing

@Suite struct VirtualClockTests {
    private static let runaway =
        ": an endless repeating timer or an action that keeps rescheduling itself never "
        + "lets the clock go idle. Advance by a bounded duration, cancel the timer, or pass a larger limit."

    // MARK: Ordering

    @Test func sameTickWorkRunsFirstInFirstOutWhateverWayItWasScheduled() {
        let (clock, messages) = recordingClock()
        let log = LockedBox<[String]>([])
        clock.schedule(at: .init(ticks: 3)) { log.append("a") }
        clock.schedule(after: .ticks(3)) { log.append("b") }
        clock.schedule(at: .init(ticks: 3), every: .ticks(10)) { log.append("c") }
        clock.scheduler.schedule(after: VirtualTime(tick: 3)) { log.append("d") }
        clock.schedule(after: .microseconds(2001)) { log.append("e") }
        clock.advance(by: .ticks(2))
        #expect(log.value.isEmpty)
        clock.advance(by: .ticks(1))
        #expect(log.value == ["a", "b", "c", "d", "e"])
        #expect(clock.pendingCount == 1)
        #expect(messages.value.isEmpty)
    }

    @Test func workRunsInDueOrderAcrossTicksAndSeesItsDueTickAsNow() {
        let clock = VirtualClock()
        let log = LockedBox<[String]>([])
        for (name, tick) in [("five", 5), ("one", 1), ("three", 3), ("one again", 1)] {
            clock.schedule(at: .init(ticks: Int64(tick))) { log.append("\(name)@\(clock.now.ticks)") }
        }
        clock.advance(to: .init(ticks: 10))
        #expect(log.value == ["one@1", "one again@1", "three@3", "five@5"])
        #expect(clock.now.ticks == 10)
    }

    @Test func pendingCountFollowsEveryStep() {
        let clock = VirtualClock()
        #expect(clock.pendingCount == 0)
        let first = clock.schedule(after: .ticks(1)) {}
        #expect(clock.pendingCount == 1)
        let timer = clock.schedule(at: .init(ticks: 2), every: .ticks(2)) {}
        #expect(clock.pendingCount == 2)
        clock.schedule(after: .ticks(3)) {}
        #expect(clock.pendingCount == 3)
        clock.advance(by: .ticks(1))
        #expect(clock.pendingCount == 2)
        #expect(!first.isScheduled)
        clock.advance(by: .ticks(3))
        #expect(clock.pendingCount == 1) // the timer counts once however often it ran
        #expect(timer.isScheduled)
        timer.cancel()
        #expect(clock.pendingCount == 0)
        #expect(!timer.isScheduled)
        clock.run()
        #expect(clock.now.ticks == 4) // run() with nothing pending moves nothing
    }

    // MARK: Reentrancy

    @Test func actionsMayScheduleForThisTickAnEarlierTickAndLaterTicks() {
        let (clock, messages) = recordingClock()
        let log = LockedBox<[String]>([])
        clock.schedule(at: .init(ticks: 2)) {
            log.append("outer@\(clock.now.ticks)")
            clock.schedule(at: .init(ticks: 2)) { log.append("same tick@\(clock.now.ticks)") }
            clock.schedule(at: .init(ticks: 1)) { log.append("earlier@\(clock.now.ticks)") }
            clock.schedule(after: .ticks(2)) { log.append("later@\(clock.now.ticks)") }
            clock.schedule(after: .ticks(20)) { log.append("beyond@\(clock.now.ticks)") }
        }
        clock.schedule(at: .init(ticks: 2)) { log.append("already due@\(clock.now.ticks)") }
        clock.advance(by: .ticks(5))
        #expect(log.value == ["outer@2", "already due@2", "same tick@2", "earlier@2", "later@4"])
        #expect(clock.pendingCount == 1)
        #expect(clock.now.ticks == 5)
        #expect(messages.value.isEmpty)
    }

    @Test func pastDatedWorkRunsAtNowAndTimeNeverGoesBackwards() {
        let clock = VirtualClock(now: .init(ticks: 10))
        let log = LockedBox<[Int64]>([])
        clock.schedule(at: .init(ticks: 3)) { log.append(clock.now.ticks) }
        clock.schedule(after: .ticks(-5)) { log.append(clock.now.ticks) }
        clock.schedule(at: .init(ticks: .min)) { log.append(clock.now.ticks) }
        #expect(log.value.isEmpty) // nothing runs until the clock is driven
        clock.advance(by: .zero)
        #expect(log.value == [10, 10, 10])
        #expect(clock.now.ticks == 10)
    }

    @Test func anActionMayAdvanceTheClockItself() {
        let clock = VirtualClock()
        let log = LockedBox<[String]>([])
        clock.schedule(at: .init(ticks: 2)) {
            log.append("outer@\(clock.now.ticks)")
            clock.advance(by: .ticks(3))
            log.append("outer after inner advance@\(clock.now.ticks)")
        }
        clock.schedule(at: .init(ticks: 4)) { log.append("inner@\(clock.now.ticks)") }
        clock.schedule(at: .init(ticks: 7)) { log.append("late@\(clock.now.ticks)") }
        clock.advance(to: .init(ticks: 10))
        #expect(log.value == ["outer@2", "inner@4", "outer after inner advance@5", "late@7"])
        #expect(clock.now.ticks == 10)
    }

    @Test func anActionAdvancingPastTheOuterTargetLeavesTimeWhereTheInnerAdvanceGotTo() {
        let clock = VirtualClock()
        clock.schedule(at: .init(ticks: 1)) { clock.advance(by: .ticks(50)) }
        clock.advance(by: .ticks(10))
        #expect(clock.now.ticks == 51)
    }

    // MARK: Cancellation

    @Test func cancellingBeforeTheActionRunsTakesItOffTheTimelineAndReleasesIt() {
        let clock = VirtualClock()
        let tracker = LifetimeTracker()
        let ran = LockedBox(false)
        let token = tracker.token()
        let action = clock.schedule(after: .ticks(1)) {
            _ = token
            ran.mutate { $0 = true }
        }
        _ = consume token
        #expect(tracker.alive.value == 1)
        action.cancel()
        #expect(tracker.alive.value == 0)
        #expect(clock.pendingCount == 0)
        #expect(!action.isScheduled)
        clock.advance(by: .ticks(5))
        #expect(!ran.value)
        action.cancel()
        #expect(clock.pendingCount == 0)
    }

    @Test func cancellingAfterTheActionRanDoesNothing() {
        let clock = VirtualClock()
        let count = LockedBox(0)
        let action = clock.schedule(after: .ticks(1)) { count.mutate { $0 += 1 } }
        clock.schedule(after: .ticks(9)) {}
        clock.advance(by: .ticks(1))
        action.cancel()
        #expect(count.value == 1)
        #expect(clock.pendingCount == 1)
    }

    @Test func anActionMayCancelItselfOrOtherWorkDueOnTheSameTick() {
        let clock = VirtualClock()
        let log = LockedBox<[String]>([])
        let holder = LockedBox<[VirtualClock.ScheduledAction]>([])
        let first = clock.schedule(at: .init(ticks: 1)) {
            log.append("first")
            holder.value.forEach { $0.cancel() }
        }
        let second = clock.schedule(at: .init(ticks: 1)) { log.append("second") }
        holder.mutate { $0 = [first, second] }
        clock.advance(by: .ticks(1))
        #expect(log.value == ["first"])
        #expect(clock.pendingCount == 0)
    }

    @Test func aRepeatingActionCancellingItselfStopsAtOnce() {
        let clock = VirtualClock()
        let ticks = LockedBox<[Int64]>([])
        let timer = LockedBox<VirtualClock.ScheduledAction?>(nil)
        timer.mutate {
            $0 = clock.schedule(at: .init(ticks: 2), every: .ticks(3)) {
                ticks.append(clock.now.ticks)
                if ticks.value.count == 3 { timer.value?.cancel() }
            }
        }
        #expect(clock.pendingCount == 1)
        clock.advance(by: .ticks(100))
        #expect(ticks.value == [2, 5, 8])
        #expect(clock.pendingCount == 0)
        #expect(timer.value?.isScheduled == false)
        timer.mutate { $0 = nil }
    }

    @Test func aRepeatingActionRunsOncePerIntervalFromItsFirstRun() {
        let clock = VirtualClock(now: .init(ticks: 10))
        let ticks = LockedBox<[Int64]>([])
        let timer = clock.schedule(at: .init(ticks: 4), every: .ticks(4)) { ticks.append(clock.now.ticks) }
        clock.advance(by: .ticks(9))
        #expect(ticks.value == [10, 14, 18]) // past-dated: first run now, no catch-up burst
        timer.cancel()
    }

    /// Two repeating timers due on the same tick run in the order they were first scheduled, as a serial queue runs
    /// them, whichever was re-armed last: a 2-tick and a 3-tick timer both fall due at tick 6.
    @Test func repeatingWorkDueOnTheSameTickRunsInTheOrderItWasFirstScheduled() {
        let clock = VirtualClock()
        let log = LockedBox<[String]>([])
        let two = clock.schedule(at: .init(ticks: 2), every: .ticks(2)) { log.append("2@\(clock.now.ticks)") }
        let three = clock.schedule(at: .init(ticks: 3), every: .ticks(3)) { log.append("3@\(clock.now.ticks)") }
        clock.advance(by: .ticks(6))
        #expect(log.value == ["2@2", "3@3", "2@4", "2@6", "3@6"])
        two.cancel()
        three.cancel()
    }

    /// A repeating timer still pending when a drive stops on its limit is called endless even if it was scheduled
    /// before the drive began (it keeps the sequence of its first scheduling).
    @Test func aTimerScheduledBeforeTheDriveIsStillCalledEndless() {
        let (clock, messages) = recordingClock()
        let timer = clock.schedule(at: .init(ticks: 1), every: .ticks(1)) {}
        clock.advance(by: .ticks(10), limit: 3)
        #expect(
            messages.value == [
                "VirtualClock.advance(by:) stopped after running 3 actions at tick 3, with 1 still "
                    + "pending" + Self.runaway
            ])
        timer.cancel()
    }

    // MARK: Bounds

    @Test func runStopsAnEndlessTimerAtItsLimitAndSaysSo() {
        let (clock, messages) = recordingClock()
        let count = LockedBox(0)
        let timer = clock.schedule(at: .init(ticks: 0), every: .ticks(1)) { count.mutate { $0 += 1 } }
        clock.run(limit: 5)
        #expect(count.value == 5)
        #expect(clock.now.ticks == 4)
        #expect(
            messages.value == [
                "VirtualClock.run() stopped after running 5 actions at tick 4, with 1 still pending" + Self.runaway
            ])
        timer.cancel()
        clock.run(limit: 5)
        #expect(count.value == 5)
        #expect(messages.value.count == 1)
    }

    @Test func runWithTheDefaultLimitStopsAfterAMillionActions() {
        let (clock, messages) = recordingClock()
        let timer = clock.schedule(at: .init(ticks: 1), every: .ticks(1)) {}
        clock.run()
        #expect(VirtualClock.defaultActionLimit == 1_000_000)
        #expect(clock.now.ticks == 1_000_000) // one run per tick
        #expect(
            messages.value == [
                "VirtualClock.run() stopped after running 1000000 actions at tick 1000000, with 1 still pending"
                    + Self.runaway
            ])
        timer.cancel()
    }

    @Test func advanceStopsWorkThatKeepsReschedulingItselfOnOneTick() {
        let (clock, messages) = recordingClock()
        let count = LockedBox(0)
        @Sendable func again() {
            count.mutate { $0 += 1 }
            clock.schedule(after: .zero, again)
        }
        clock.schedule(at: .init(ticks: 1), again)
        clock.advance(by: .ticks(10), limit: 3)
        #expect(count.value == 3)
        #expect(clock.now.ticks == 1) // time stays where the runaway work is
        #expect(
            messages.value == [
                "VirtualClock.advance(by:) stopped after running 3 actions at tick 1, with 1 still pending"
                    + Self.runaway
            ])
        clock.end()
    }

    @Test func moreOneShotWorkThanTheLimitIsNotCalledAnEndlessTimer() {
        let (clock, messages) = recordingClock()
        let count = LockedBox(0)
        for tick in 1...6 { clock.schedule(at: .init(ticks: Int64(tick))) { count.mutate { $0 += 1 } } }
        clock.run(limit: 5)
        #expect(count.value == 5)
        #expect(clock.now.ticks == 5)
        #expect(
            messages.value == [
                "VirtualClock.run() stopped after running 5 actions at tick 5, with 1 still pending: more work was "
                    + "scheduled before the call than its limit lets it run, and none of it repeats. Pass a larger "
                    + "limit, or drive the clock in steps."
            ])
        clock.run(limit: 5)
        #expect(count.value == 6)
        #expect(messages.value.count == 1)
    }

    @Test func aLimitThatIsReachedExactlyAsTheWorkRunsOutIsNotARunaway() {
        let (clock, messages) = recordingClock()
        for tick in 1...3 { clock.schedule(at: .init(ticks: Int64(tick))) {} }
        clock.advance(to: .init(ticks: 8), limit: 3)
        #expect(clock.now.ticks == 8)
        #expect(messages.value.isEmpty)
    }

    @Test func aLimitBelowOneIsReportedAndTreatedAsOne() {
        let (clock, messages) = recordingClock()
        let count = LockedBox(0)
        for _ in 0..<2 { clock.schedule(after: .ticks(1)) { count.mutate { $0 += 1 } } }
        clock.run(limit: 0)
        #expect(count.value == 1)
        #expect(
            messages.value == [
                "VirtualClock.run() was given a limit of 0 actions; a limit must be at least 1, so it is 1.",
                // Two one-shot actions scheduled before the call: work the limit cuts short, not an endless timer.
                "VirtualClock.run() stopped after running 1 action at tick 1, with 1 still pending: more work was "
                    + "scheduled before the call than its limit lets it run, and none of it repeats. Pass a larger "
                    + "limit, or drive the clock in steps.",
            ])
    }

    @Test func aNegativeAdvanceIsReportedAndRunsOnlyWhatIsDueNow() {
        let (clock, messages) = recordingClock(at: 5)
        let log = LockedBox<[Int64]>([])
        clock.schedule(after: .zero) { log.append(clock.now.ticks) }
        clock.schedule(after: .ticks(1)) { log.append(clock.now.ticks) }
        clock.advance(by: .ticks(-3))
        #expect(clock.now.ticks == 5)
        #expect(log.value == [5])
        #expect(
            messages.value == [
                "VirtualClock.advance(by:) was given a negative duration (-3 ticks); time never goes backwards, so the "
                    + "clock stays at tick 5."
            ])
    }

    @Test func advancingToThePastIsReportedAndRunsOnlyWhatIsDueNow() {
        let (clock, messages) = recordingClock(at: 5)
        let log = LockedBox<[Int64]>([])
        clock.schedule(after: .zero) { log.append(clock.now.ticks) }
        clock.schedule(after: .ticks(1)) { log.append(clock.now.ticks) }
        clock.advance(to: .init(ticks: 2))
        #expect(clock.now.ticks == 5)
        #expect(log.value == [5])
        #expect(
            messages.value == [
                "VirtualClock.advance(to:) was given tick 2, which is before now (tick 5); time never goes backwards, "
                    + "so the clock stays at tick 5."
            ])
        clock.advance(to: .init(ticks: 5))
        #expect(messages.value.count == 1) // now itself is not the past
    }

    @Test(arguments: [
        (Duration.zero, "0.0 seconds"),
        (Duration.ticks(-2), "-0.002 seconds"),
    ])
    func aRepeatIntervalOfZeroOrLessIsReportedAndRepeatsEveryTick(interval: Duration, described: String) {
        let (clock, messages) = recordingClock()
        let ticks = LockedBox<[Int64]>([])
        let timer = clock.schedule(at: .init(ticks: 1), every: interval) { ticks.append(clock.now.ticks) }
        clock.advance(by: .ticks(3))
        #expect(ticks.value == [1, 2, 3])
        #expect(
            messages.value == [
                "VirtualClock.schedule(at:every:) was given a repeat interval of \(described); an interval must be "
                    + "positive, so the action repeats every tick (1 ms) instead."
            ])
        timer.cancel()
    }

    @Test func aPositiveRepeatIntervalFinerThanATickRoundsUpToOneTickWithoutAReport() {
        let (clock, messages) = recordingClock()
        let ticks = LockedBox<[Int64]>([])
        let timer = clock.schedule(at: .init(ticks: 1), every: .microseconds(500)) { ticks.append(clock.now.ticks) }
        clock.advance(by: .ticks(3))
        #expect(ticks.value == [1, 2, 3])
        #expect(messages.value == [])
        timer.cancel()
    }

    // MARK: Ending

    @Test func endDropsPendingWorkAndReleasesIt() {
        let clock = VirtualClock()
        let tracker = LifetimeTracker()
        let ran = LockedBox(0)
        for tick in 1...3 {
            let token = tracker.token()
            clock.schedule(at: .init(ticks: Int64(tick))) {
                _ = token
                ran.mutate { $0 += 1 }
            }
        }
        let timer = clock.schedule(at: .init(ticks: 1), every: .ticks(1)) { ran.mutate { $0 += 1 } }
        clock.advance(by: .ticks(1))
        #expect(ran.value == 2)
        #expect(clock.end() == 3)
        #expect(clock.hasEnded)
        #expect(clock.pendingCount == 0)
        #expect(!timer.isScheduled)
        #expect(tracker.alive.value == 0)
        clock.run()
        #expect(ran.value == 2)
        #expect(clock.end() == 0)
    }

    @Test func schedulingAfterTheEndIsReportedAndRefused() {
        let (clock, messages) = recordingClock()
        clock.advance(by: .ticks(5))
        clock.end()
        let tracker = LifetimeTracker()
        let token = tracker.token()
        let ran = LockedBox(false)
        let refused = clock.schedule(after: .ticks(1)) {
            _ = token
            ran.mutate { $0 = true }
        }
        _ = consume token
        clock.schedule(at: .init(ticks: 9)) { ran.mutate { $0 = true } }
        clock.schedule(at: .init(ticks: 9), every: .ticks(2)) { ran.mutate { $0 = true } }
        clock.scheduler.schedule { ran.mutate { $0 = true } }
        #expect(!refused.isScheduled)
        #expect(tracker.alive.value == 0)
        #expect(clock.pendingCount == 0)
        clock.run()
        #expect(!ran.value)
        #expect(
            messages.value == [
                "VirtualClock.schedule(after:) was called after the clock's test ended (at tick 5); the action will never run.",
                "VirtualClock.schedule(at:) was called after the clock's test ended (at tick 5); the action will never run.",
                "VirtualClock.schedule(at:every:) was called after the clock's test ended (at tick 5); the action will "
                    + "never run.",
                "TestScheduler.schedule(options:_:) was called after the clock's test ended (at tick 5); the action will "
                    + "never run.",
            ])
        refused.cancel()
        #expect(clock.pendingCount == 0)
    }

    /// Advancing a clock whose test has ended is reported and moves time no more (it once went from 5 to 1005).
    @Test func advancingAfterTheEndIsReportedAndLeavesTimeWhereItEnded() {
        let (clock, messages) = recordingClock()
        clock.advance(by: .ticks(5))
        clock.end()
        clock.advance(by: .seconds(1))
        clock.advance(to: .init(ticks: 2000))
        clock.scheduler.advance(by: .ticks(3))
        #expect(clock.now.ticks == 5)
        #expect(
            messages.value == [
                "VirtualClock.advance(by:) " + Self.afterTheEnd,
                "VirtualClock.advance(to:) " + Self.afterTheEnd,
                "TestScheduler.advance(by:) " + Self.afterTheEnd,
            ])
    }

    @Test func awaitingAnAdvanceAfterTheEndIsReportedToo() async {
        let (clock, messages) = recordingClock()
        await clock.advance(by: .ticks(5))
        clock.end()
        await clock.advance(by: .seconds(1))
        #expect(clock.now.ticks == 5)
        #expect(messages.value == ["VirtualClock.advance(by:) " + Self.afterTheEnd])
    }

    private static let afterTheEnd = "was called after the clock's test ended (at tick 5); the clock stays at tick 5."

    // MARK: Ticks

    @Test(arguments: [
        (Duration.milliseconds(3), Int64(3)),
        (.microseconds(1), 1),
        (.nanoseconds(1), 1),
        (.microseconds(999), 1),
        (.microseconds(1000), 1),
        (.microseconds(1001), 2),
        (.seconds(2) + .microseconds(1), 2001),
        (.microseconds(-1), 0),
        (.microseconds(-999), 0),
        (.microseconds(-1500), -1),
        (.milliseconds(-3), -3),
        (.seconds(-2) - .microseconds(500), -2000),
        (.zero, 0),
    ])
    func durationsRoundUpToWholeTicks(duration: Duration, ticks: Int64) {
        #expect(VirtualClock.Instant(ticks: 0).advanced(by: duration).ticks == ticks)
    }

    @Test func instantArithmeticSaturatesInsteadOfOverflowing() {
        #expect(VirtualClock.Instant(ticks: .max - 1).advanced(by: .ticks(5)).ticks == .max)
        #expect(VirtualClock.Instant(ticks: .min + 1).advanced(by: .ticks(-5)).ticks == .min)
        #expect(VirtualClock.Instant(ticks: 0).advanced(by: .seconds(Int64.max)).ticks == .max)
        #expect(VirtualClock.Instant(ticks: 0).advanced(by: .seconds(Int64.min)).ticks == .min)
        #expect(VirtualClock.Instant(ticks: 2).duration(to: .init(ticks: 7)) == .ticks(5))
        #expect(VirtualClock.Instant(ticks: .min).duration(to: .init(ticks: .max)) > .seconds(1_000_000))
        #expect(VirtualClock.Instant(ticks: 5).description == "tick 5")
        #expect(VirtualClock.Instant(ticks: 1) < VirtualClock.Instant(ticks: 2))
        #expect(Duration.ticks(7) == .milliseconds(7))
        #expect(VirtualClock().minimumResolution == .ticks(1))
    }

    @Test func theClockSaturatesAtTheEndOfTime() {
        let (clock, messages) = recordingClock(at: .max - 3)
        let ticks = LockedBox<[Int64]>([])
        let timer = clock.schedule(at: .init(ticks: .max - 1), every: .ticks(1)) { ticks.append(clock.now.ticks) }
        clock.schedule(after: .seconds(Int64.max)) { ticks.append(-clock.now.ticks) }
        clock.advance(by: .seconds(Int64.max))
        #expect(clock.now.ticks == .max)
        #expect(ticks.value == [.max - 1, .max, -.max]) // the timer was first scheduled before the one-shot
        #expect(clock.pendingCount == 0) // the timer's next run would be past the end of time
        #expect(!timer.isScheduled)
        clock.advance(by: .ticks(1))
        #expect(clock.now.ticks == .max)
        #expect(messages.value.isEmpty)
    }

    // MARK: Heap

    @Test func cancellingMostOfALargeTimelineKeepsTheRestInOrder() {
        let clock = VirtualClock()
        let count = 6000
        let log = LockedBox<[Int]>([])
        var actions: [VirtualClock.ScheduledAction] = []
        for index in 0..<count {
            let tick = Int64((index * 7919) % count) // a permutation of 0..<count
            actions.append(clock.schedule(at: .init(ticks: tick)) { log.append(Int(tick)) })
        }
        for (index, action) in actions.enumerated() where (index * 7919) % count % 5 != 0 {
            action.cancel()
        }
        #expect(clock.pendingCount == count / 5)
        // More work after the cancelled entries were swept out keeps its place among the survivors.
        for tick in stride(from: 2, to: count, by: 5) {
            clock.schedule(at: .init(ticks: Int64(tick))) { log.append(tick) }
        }
        #expect(clock.pendingCount == 2 * count / 5)
        clock.advance(by: .ticks(count / 2))
        let half = (0...(count / 2)).filter { $0 % 5 == 0 || $0 % 5 == 2 }
        #expect(log.value == half)
        clock.run()
        #expect(log.value == (0..<count).filter { $0 % 5 == 0 || $0 % 5 == 2 })
        #expect(clock.pendingCount == 0)
    }
}
