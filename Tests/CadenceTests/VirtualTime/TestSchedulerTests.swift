import Cadence
import Testing

@Suite struct TestSchedulerTests {
    @Test func nowIsTheClocksTimeInTheSchedulersTimeType() {
        let clock = VirtualClock(now: .init(ticks: 7))
        let scheduler = VirtualScheduler(clock: clock)
        #expect(scheduler.now == VirtualTime(tick: 7))
        scheduler.advance(by: .ticks(5))
        #expect(scheduler.now == VirtualTime(tick: 12))
        #expect(clock.now.ticks == 12)
        #expect(scheduler.minimumTolerance == 0)
        #expect(clock.scheduler.clock === clock)
    }

    @Test func scheduleRunsAtTheCurrentTickOnlyWhenTheClockIsDriven() {
        let scheduler = VirtualScheduler()
        let log = LockedBox<[String]>([])
        scheduler.schedule(after: scheduler.now) { log.append("due already") }
        scheduler.schedule { log.append("now") }
        scheduler.schedule(options: nil) { log.append("now with options") }
        #expect(log.value.isEmpty)
        #expect(scheduler.clock.pendingCount == 3)
        scheduler.advance()
        #expect(log.value == ["due already", "now", "now with options"])
        #expect(scheduler.now == VirtualTime(tick: 0))
    }

    @Test func scheduleAfterRunsAtItsDateOrAtNowWhenItHasPassed() {
        let (clock, messages) = recordingClock(at: 10)
        let scheduler = clock.scheduler
        let log = LockedBox<[String]>([])
        scheduler.schedule(after: VirtualTime(tick: 15)) { log.append("future@\(scheduler.now.tick)") }
        scheduler.schedule(after: VirtualTime(tick: 3)) { log.append("past@\(scheduler.now.tick)") }
        scheduler.schedule(after: VirtualTime(tick: 12), tolerance: .ticks(4)) {
            log.append("tolerant@\(scheduler.now.tick)")
        }
        scheduler.advance(by: .ticks(4))
        #expect(log.value == ["past@10", "tolerant@12"])
        scheduler.advance(to: VirtualTime(tick: 15))
        #expect(log.value == ["past@10", "tolerant@12", "future@15"])
        #expect(messages.value.isEmpty)
    }

    @Test func aRepeatingActionRunsEveryIntervalUntilCancelled() {
        let scheduler = VirtualScheduler()
        let ticks = LockedBox<[Int64]>([])
        let timer = scheduler.schedule(after: scheduler.now.advanced(by: .ticks(2)), interval: .ticks(3)) {
            ticks.append(scheduler.now.tick)
        }
        scheduler.advance(by: .ticks(9))
        #expect(ticks.value == [2, 5, 8])
        #expect(scheduler.clock.pendingCount == 1)
        timer.cancel()
        #expect(scheduler.clock.pendingCount == 0)
        scheduler.advance(by: .ticks(9))
        #expect(ticks.value == [2, 5, 8])
    }

    @Test func runRunsEverythingAndMovesTimeToTheLastAction() {
        let scheduler = VirtualScheduler()
        let log = LockedBox<[Int64]>([])
        for tick in [40, 10, 20] {
            scheduler.schedule(after: VirtualTime(tick: Int64(tick))) { log.append(scheduler.now.tick) }
        }
        scheduler.run()
        #expect(log.value == [10, 20, 40])
        #expect(scheduler.now == VirtualTime(tick: 40))
    }

    @Test func aToleranceLargerThanTheIntervalIsReportedAndIgnored() {
        let (clock, messages) = recordingClock()
        let scheduler = clock.scheduler
        let ticks = LockedBox<[Int64]>([])
        let timer = scheduler.schedule(after: VirtualTime(tick: 1), interval: .ticks(3), tolerance: .ticks(5)) {
            ticks.append(scheduler.now.tick)
        }
        scheduler.advance(by: .ticks(7))
        #expect(ticks.value == [1, 4, 7])
        #expect(
            messages.value == [
                "TestScheduler.schedule(after:interval:tolerance:options:_:) was given a tolerance (5 ticks) larger than "
                    + "its interval (3 ticks); virtual time ignores tolerance and runs the action exactly every interval."
            ])
        timer.cancel()
    }

    @Test func aNegativeToleranceIsReported() {
        let (clock, messages) = recordingClock()
        let scheduler = clock.scheduler
        scheduler.schedule(after: VirtualTime(tick: 1), tolerance: .ticks(-1)) {}
        scheduler.schedule(after: VirtualTime(tick: 1), interval: .ticks(2), tolerance: -2) {}.cancel()
        #expect(
            messages.value == [
                "TestScheduler.schedule(after:tolerance:options:_:) was given a negative tolerance (-1 tick); a tolerance "
                    + "must not be negative, and virtual time ignores it.",
                "TestScheduler.schedule(after:interval:tolerance:options:_:) was given a negative tolerance (-2 ticks); a "
                    + "tolerance must not be negative, and virtual time ignores it.",
            ])
    }

    @Test(arguments: [(VirtualTime.Stride.ticks(0), "0 ticks"), (.ticks(-4), "-4 ticks"), (.nanoseconds(1), "1 tick")])
    func aZeroOrNegativeIntervalIsReportedAndRepeatsEveryTick(interval: VirtualTime.Stride, described: String) {
        let (clock, messages) = recordingClock()
        let scheduler = clock.scheduler
        let ticks = LockedBox<[Int64]>([])
        let timer = scheduler.schedule(after: VirtualTime(tick: 1), interval: interval) {
            ticks.append(scheduler.now.tick)
        }
        scheduler.advance(by: .ticks(3))
        #expect(ticks.value == [1, 2, 3])
        let expected =
            interval.ticks <= 0
            ? [
                "TestScheduler.schedule(after:interval:tolerance:options:_:) was given a repeat interval of \(described); "
                    + "an interval must be positive, so the action repeats every tick (1 ms) instead."
            ] : []
        #expect(messages.value == expected)
        timer.cancel()
    }

    @Test func drivingTheSchedulerBackwardsIsReportedUnderItsOwnName() {
        let (clock, messages) = recordingClock(at: 5)
        let scheduler = clock.scheduler
        scheduler.advance(by: .ticks(-1))
        scheduler.advance(to: VirtualTime(tick: 4))
        #expect(scheduler.now == VirtualTime(tick: 5))
        #expect(
            messages.value == [
                "TestScheduler.advance(by:) was given a negative duration (-1 tick); time never goes backwards, so the "
                    + "clock stays at tick 5.",
                "TestScheduler.advance(to:) was given tick 4, which is before now (tick 5); time never goes backwards, so "
                    + "the clock stays at tick 5.",
            ])
    }

    @Test func schedulersCreatedWhileAClockIsBoundShareIt() {
        let clock = VirtualClock()
        let log = LockedBox<[String]>([])
        VirtualClock.$current.withValue(clock) {
            let plain = VirtualScheduler()
            let other = TestScheduler<VirtualTime, Int>()
            #expect(plain.clock === clock)
            #expect(other.clock === clock)
            plain.schedule(after: VirtualTime(tick: 3)) { log.append("plain@\(clock.now.ticks)") }
            other.schedule(after: VirtualTime(tick: 2), tolerance: 0, options: 42) {
                log.append("other@\(clock.now.ticks)")
            }
            other.advance(by: .ticks(3))
            #expect(plain.now == VirtualTime(tick: 3))
        }
        #expect(log.value == ["other@2", "plain@3"])
    }

    @Test func withNoClockBoundEachSchedulerHasItsOwn() {
        let first = VirtualScheduler()
        let second = VirtualScheduler()
        #expect(first.clock !== second.clock)
        first.advance(by: .ticks(5))
        #expect(first.now == VirtualTime(tick: 5))
        #expect(second.now == VirtualTime(tick: 0))
        let explicit = VirtualClock()
        VirtualClock.$current.withValue(VirtualClock()) {
            #expect(VirtualScheduler(clock: explicit).clock === explicit)
        }
    }

    @Test func theSchedulerReportsThroughItsClocksReporter() {
        let messages = LockedBox<[String]>([])
        let scheduler = FailureReporter.$current.withValue(.init { messages.append($0.message) }) { VirtualScheduler() }
        scheduler.clock.end()
        scheduler.schedule(after: VirtualTime(tick: 3)) {}
        #expect(
            messages.value == [
                "TestScheduler.schedule(after:tolerance:options:_:) was called after the clock's test ended (at tick 0); "
                    + "the action will never run."
            ])
    }
}
