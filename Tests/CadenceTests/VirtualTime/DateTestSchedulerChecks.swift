import Cadence
import Foundation
import Testing

/// `RunLoop.test` and `OperationQueue.test` present virtual time as `Date`s the same way; these checks pin it once.
protocol DateVirtualTime: VirtualTimeConvertible where Stride: DateVirtualStride {
    init(_ date: Date)
    var date: Date { get }
}

protocol DateVirtualStride: SchedulerTimeIntervalConvertible {
    init(_ timeInterval: TimeInterval)
}

extension RunLoop.SchedulerTimeType: DateVirtualTime {}
extension RunLoop.SchedulerTimeType.Stride: DateVirtualStride {}
extension OperationQueue.SchedulerTimeType: DateVirtualTime {}
extension OperationQueue.SchedulerTimeType.Stride: DateVirtualStride {}

enum DateTestSchedulerChecks {
    static func conversions<Time: DateVirtualTime>(_: Time.Type) {
        #expect(Time(virtualTick: 0).date == Date(timeIntervalSinceReferenceDate: 0))
        #expect(Time(virtualTick: 1_500).date == Date(timeIntervalSinceReferenceDate: 1.5))
        for tick: Int64 in [0, 1, 3, 7, 299, 1_000_003, 86_400_000, 1 << 40, -7, -1_000_003] {
            #expect(Time(virtualTick: tick).virtualTick == tick)
        }
        #expect(Time(Date(timeIntervalSinceReferenceDate: 0.003)).virtualTick == 3)
        #expect(Time(Date(timeIntervalSinceReferenceDate: 0.0015)).virtualTick == 2)
        #expect(Time(Date(timeIntervalSinceReferenceDate: 0.003_000_001)).virtualTick == 4)
        #expect(Time(Date(timeIntervalSinceReferenceDate: -0.0015)).virtualTick == -1)
        #expect(Time(.distantFuture).virtualTick == 63_113_904_000_000)
    }

    static func strides<Time: DateVirtualTime>(_: Time.Type) {
        #expect(Time.virtualTicks(in: .milliseconds(3)) == 3)
        #expect(Time.virtualTicks(in: .seconds(2)) == 2_000)
        #expect(Time.virtualTicks(in: .seconds(1.0005)) == 1_001)
        #expect(Time.virtualTicks(in: .microseconds(1)) == 1)
        #expect(Time.virtualTicks(in: .nanoseconds(1)) == 1)
        #expect(Time.virtualTicks(in: .milliseconds(0)) == 0)
        #expect(Time.virtualTicks(in: .microseconds(-1_500)) == -1)
        #expect(Time.virtualTicks(in: Time.Stride(.infinity)) == .max)
        #expect(Time.virtualTicks(in: Time.Stride(-.infinity)) == .min)
        #expect(Time.virtualTicks(in: Time.Stride(.nan)) == 0)
    }

    static func scheduling<Options>(_ scheduler: TestScheduler<some DateVirtualTime, Options>) {
        let fired = LockedBox<[Int64]>([])
        #expect(scheduler.now.virtualTick == 0)
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { fired.append(scheduler.clock.now.ticks) }
        scheduler.schedule(after: scheduler.now.advanced(by: .microseconds(1_500))) {
            fired.append(scheduler.clock.now.ticks)
        }
        scheduler.advance(by: .milliseconds(1))
        #expect(fired.value.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(fired.value == [2])
        scheduler.advance(by: .milliseconds(997))
        #expect(fired.value == [2])
        scheduler.advance(by: .milliseconds(1))
        #expect(fired.value == [2, 1_000])
        let cancellable = scheduler.schedule(after: scheduler.now, interval: .milliseconds(250)) {
            fired.append(scheduler.clock.now.ticks)
        }
        scheduler.advance(by: .milliseconds(500))
        cancellable.cancel()
        #expect(scheduler.clock.pendingCount == 0)
        #expect(fired.value == [2, 1_000, 1_000, 1_250, 1_500])
    }
}
