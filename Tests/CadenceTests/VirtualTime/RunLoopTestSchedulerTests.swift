import Cadence
import Foundation
import Testing

@Suite struct RunLoopTestSchedulerTests {
    @Test func ticksAreMillisecondsAfterTheReferenceDateAndRoundUp() {
        DateTestSchedulerChecks.conversions(RunLoop.SchedulerTimeType.self)
    }

    @Test func stridesCountWholeTicksRoundedUp() {
        DateTestSchedulerChecks.strides(RunLoop.SchedulerTimeType.self)
    }

    @Test func workRunsExactlyWhenTheClockReachesIt() {
        DateTestSchedulerChecks.scheduling(RunLoop.test)
    }

    @Test func theFactoryUsesTheBoundClock() {
        let clock = VirtualClock(now: VirtualClock.Instant(ticks: 42))
        VirtualClock.$current.withValue(clock) {
            let scheduler = RunLoop.test
            #expect(scheduler.clock === clock)
            #expect(scheduler.now.virtualTick == 42)
            #expect(scheduler.now.date == Date(timeIntervalSinceReferenceDate: 0.042))
        }
    }
}
