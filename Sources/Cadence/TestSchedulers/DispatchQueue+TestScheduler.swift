#if canImport(Combine)
import Combine
import Foundation
#else
import Dispatch
#endif

extension DispatchQueue.SchedulerTimeType: VirtualTimeConvertible {
    /// The uptime that stands for tick `0`: 1 ns, because Dispatch reads an uptime of `0` as "now".
    static let virtualOriginNanoseconds: UInt64 = 1

    /// Tick `tick` as `1 + tick × 1 000 000` ns of uptime; ticks before `0` stand at the origin, and ticks too far
    /// away to express in nanoseconds at `DispatchTime.distantFuture`.
    public init(virtualTick tick: Int64) {
        guard tick > 0 else {
            self.init(DispatchTime(uptimeNanoseconds: Self.virtualOriginNanoseconds))
            return
        }
        let (offset, overflow) = UInt64(tick).multipliedReportingOverflow(by: 1_000_000)
        let (uptime, sumOverflow) = offset.addingReportingOverflow(Self.virtualOriginNanoseconds)
        self.init(overflow || sumOverflow ? .distantFuture : DispatchTime(uptimeNanoseconds: uptime))
    }

    /// The first tick at or after this time; `distantFuture` is `Int64.max`.
    ///
    /// A time less than 1 µs past a tick counts as that tick: on Apple platforms Dispatch stores uptimes in the
    /// machine's own time base, so a tick converted to a `DispatchTime` and back can come out a few nanoseconds off.
    public var virtualTick: Int64 {
        if dispatchTime == .distantFuture { return .max }
        let uptime = dispatchTime.uptimeNanoseconds
        let slack: UInt64 = 1_000
        guard uptime > Self.virtualOriginNanoseconds + slack else { return 0 }
        let offset = uptime - Self.virtualOriginNanoseconds - slack
        let ticks = offset / 1_000_000 + (offset % 1_000_000 > 0 ? 1 : 0)
        return ticks > UInt64(Int64.max) ? .max : Int64(ticks)
    }

    /// The whole ticks in `interval`, rounded up (toward positive infinity).
    public static func virtualTicks(in interval: Stride) -> Int64 {
        let nanoseconds = Int64(interval.magnitude)
        let quotient = nanoseconds / 1_000_000
        return nanoseconds % 1_000_000 > 0 ? quotient + 1 : quotient
    }
}

extension DispatchQueue {
    /// A test scheduler with `DispatchQueue`'s time and options, for code that takes `AnySchedulerOf<DispatchQueue>`.
    ///
    /// Each access makes a new ``TestScheduler`` on the task's current ``VirtualClock`` (or on a new clock when none
    /// is bound), so every test scheduler of a test shares one timeline. Tick `0` is the `DispatchTime` of 1 ns of
    /// uptime, and each tick is 1 ms later:
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// var fired = false
    /// scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(300))) { fired = true }
    /// scheduler.advance(by: .milliseconds(299))   // fired == false
    /// scheduler.advance(by: .milliseconds(1))     // fired == true
    /// ```
    public static var test: TestSchedulerOf<DispatchQueue> {
        TestSchedulerOf<DispatchQueue>(label: "DispatchQueue.test")
    }
}
