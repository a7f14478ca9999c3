import Cadence
import Dispatch
import Foundation
import Testing

@Suite struct DispatchQueueTestSchedulerTests {
    typealias Time = DispatchQueue.SchedulerTimeType
    typealias Stride = DispatchQueue.SchedulerTimeType.Stride

    @Test func ticksRoundTripThroughDispatchTime() {
        for tick: Int64 in [0, 1, 5, 299, 1_000, 86_400_000, 1 << 40] {
            #expect(Time(virtualTick: tick).virtualTick == tick)
        }
        #expect(Time(virtualTick: 1) < Time(virtualTick: 2))
    }

    @Test func tickZeroIsOneNanosecondOfUptimeBecauseZeroMeansNow() {
        #if !canImport(Darwin)
        #expect(Time(virtualTick: 0).dispatchTime.uptimeNanoseconds == 1)
        #expect(Time(virtualTick: 300).dispatchTime.uptimeNanoseconds == 300_000_001)
        #expect(Time(virtualTick: 0).distance(to: Time(virtualTick: 300)) == .milliseconds(300))
        #endif
        #expect(Time(virtualTick: 0).dispatchTime != DispatchTime(uptimeNanoseconds: 0))
    }

    @Test func ticksOutsideDispatchTimeClampToItsEnds() {
        #expect(Time(virtualTick: -7) == Time(virtualTick: 0))
        #expect(Time(virtualTick: -7).virtualTick == 0)
        #expect(Time(virtualTick: .max).dispatchTime == .distantFuture)
        #expect(Time(.distantFuture).virtualTick == .max)
        #expect(Time(DispatchTime(uptimeNanoseconds: 0)).virtualTick == 0)
    }

    @Test func aTimeBetweenTicksRoundsUpToTheNextTick() {
        #if !canImport(Darwin)
        // More than 1 µs past tick 2 is tick 3; within 1 µs (Dispatch's rounding on Apple platforms) is still tick 2.
        #expect(Time(DispatchTime(uptimeNanoseconds: 1 + 2_000_000 + 1_001)).virtualTick == 3)
        #expect(Time(DispatchTime(uptimeNanoseconds: 1 + 2_000_000 + 999)).virtualTick == 2)
        #expect(Time(DispatchTime(uptimeNanoseconds: 1 + 2_500_000)).virtualTick == 3)
        #endif
        #expect(Time(virtualTick: 2).advanced(by: .microseconds(500)).virtualTick == 3)
    }

    @Test func stridesCountWholeTicksRoundedUp() {
        #expect(Time.virtualTicks(in: .milliseconds(3)) == 3)
        #expect(Time.virtualTicks(in: .seconds(2)) == 2_000)
        #expect(Time.virtualTicks(in: .microseconds(1_500)) == 2)
        #expect(Time.virtualTicks(in: .nanoseconds(1)) == 1)
        #expect(Time.virtualTicks(in: .nanoseconds(0)) == 0)
        #expect(Time.virtualTicks(in: .nanoseconds(-1_500_000)) == -1)
        #expect(Time.virtualTicks(in: .nanoseconds(.max)) == Int64(Int.max / 1_000_000) + 1)
    }

    @Test func aDelayedActionRunsExactlyWhenTheClockReachesItsDate() {
        let scheduler = DispatchQueue.test
        let fired = LockedBox<[Int64]>([])
        #expect(scheduler.now == Time(virtualTick: 0))
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(300))) {
            fired.append(scheduler.clock.now.ticks)
        }
        scheduler.advance(by: .milliseconds(299))
        #expect(fired.value.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(fired.value == [300])
        #expect(scheduler.now.virtualTick == 300)
        #expect(scheduler.clock.pendingCount == 0)
    }

    @Test func aDelayFinerThanATickRunsOnTheNextWholeTick() {
        let scheduler = DispatchQueue.test
        let fired = LockedBox<[Int64]>([])
        scheduler.schedule(after: scheduler.now.advanced(by: .microseconds(1_500))) {
            fired.append(scheduler.clock.now.ticks)
        }
        scheduler.advance(by: .milliseconds(1))
        #expect(fired.value.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(fired.value == [2])
    }

    @Test func aRepeatingActionRunsEveryIntervalUntilCancelled() {
        let scheduler = DispatchQueue.test
        let fired = LockedBox<[Int64]>([])
        let cancellable = scheduler.schedule(after: scheduler.now, interval: .milliseconds(10)) {
            fired.append(scheduler.clock.now.ticks)
        }
        scheduler.advance(by: .milliseconds(35))
        #expect(fired.value == [0, 10, 20, 30])
        #expect(scheduler.clock.pendingCount == 1)
        cancellable.cancel()
        #expect(scheduler.clock.pendingCount == 0)
        scheduler.advance(by: .seconds(1))
        #expect(fired.value == [0, 10, 20, 30])
    }

    @Test func testSchedulersOfDifferentKindsShareTheBoundClock() {
        let clock = VirtualClock()
        let log = LockedBox<[String]>([])
        VirtualClock.$current.withValue(clock) {
            let dispatch = DispatchQueue.test
            let runLoop = RunLoop.test
            let operationQueue = OperationQueue.test
            #expect(dispatch.clock === clock)
            #expect(runLoop.clock === clock)
            #expect(operationQueue.clock === clock)
            dispatch.schedule(after: dispatch.now.advanced(by: .milliseconds(20))) {
                log.append("dispatch@\(clock.now.ticks)")
            }
            runLoop.schedule(after: runLoop.now.advanced(by: .milliseconds(10))) {
                log.append("runLoop@\(clock.now.ticks)")
            }
            operationQueue.schedule(after: operationQueue.now.advanced(by: .milliseconds(15))) {
                log.append("operationQueue@\(clock.now.ticks)")
            }
            runLoop.advance(by: .milliseconds(20))
            #expect(dispatch.now.virtualTick == 20)
            #expect(operationQueue.now.virtualTick == 20)
        }
        #expect(log.value == ["runLoop@10", "operationQueue@15", "dispatch@20"])
    }

    @Test func withNoBoundClockEachTestSchedulerHasItsOwn() {
        VirtualClock.$current.withValue(nil) {
            let first = DispatchQueue.test
            let second = DispatchQueue.test
            #expect(first.clock !== second.clock)
            first.advance(by: .milliseconds(5))
            #expect(second.now.virtualTick == 0)
        }
    }

    @Test func workScheduledFromRealQueuesLandsOnTheVirtualTimelineAndHopsBack() {
        let clock = VirtualClock()
        let scheduler = TestSchedulerOf<DispatchQueue>(clock: clock)
        let real = DispatchQueue(label: "cadence.test-scheduler.real", attributes: .concurrent)
        let runs = LockedBox<[(scheduledAt: Int64, ranAt: Int64)]>([])
        let hops = LockedBox(0)
        let scheduling = DispatchGroup()
        let hopping = DispatchGroup()
        let count = 200
        for _ in 0..<count {
            real.async(group: scheduling) {
                let scheduledAt = scheduler.now
                scheduler.schedule(after: scheduledAt.advanced(by: .milliseconds(10))) {
                    runs.append((scheduledAt.virtualTick, clock.now.ticks))
                    real.async(group: hopping) { hops.mutate { $0 += 1 } }
                }
            }
        }
        for _ in 0..<20 {
            scheduler.advance(by: .milliseconds(3)) // drives the clock while other threads schedule
        }
        #expect(scheduling.wait(timeout: .now() + 10) == .success)
        scheduler.run()
        #expect(hopping.wait(timeout: .now() + 10) == .success)
        #expect(runs.value.count == count)
        #expect(runs.value.allSatisfy { $0.ranAt >= $0.scheduledAt + 10 })
        #expect(hops.value == count)
        #expect(clock.pendingCount == 0)
    }
}
