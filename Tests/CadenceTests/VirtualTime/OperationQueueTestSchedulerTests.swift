import Cadence
import Foundation
import Testing

@Suite struct OperationQueueTestSchedulerTests {
    @Test func ticksAreMillisecondsAfterTheReferenceDateAndRoundUp() {
        DateTestSchedulerChecks.conversions(OperationQueue.SchedulerTimeType.self)
    }

    @Test func stridesCountWholeTicksRoundedUp() {
        DateTestSchedulerChecks.strides(OperationQueue.SchedulerTimeType.self)
    }

    @Test func workRunsExactlyWhenTheClockReachesIt() {
        DateTestSchedulerChecks.scheduling(OperationQueue.test)
    }

    @Test func theFactoryUsesTheBoundClock() {
        let clock = VirtualClock(now: VirtualClock.Instant(ticks: 42))
        VirtualClock.$current.withValue(clock) {
            let scheduler = OperationQueue.test
            #expect(scheduler.clock === clock)
            #expect(scheduler.now.virtualTick == 42)
            #expect(scheduler.now.date == Date(timeIntervalSinceReferenceDate: 0.042))
        }
    }
}
