import Foundation

/// Ticks as dates: tick `0` is the reference date (1 January 2001, 00:00:00 UTC), each tick 1 ms later.
extension RunLoop.SchedulerTimeType: VirtualTimeConvertible, DateBackedVirtualTime {}

extension RunLoop.SchedulerTimeType.Stride: SecondsBackedStride {}

extension RunLoop {
    /// A test scheduler with `RunLoop`'s time and options, for code that takes `AnySchedulerOf<RunLoop>`.
    ///
    /// Each access makes a new TestScheduler on the task's current VirtualClock (or on a new clock when none
    /// is bound), so every test scheduler of a test shares one timeline. Tick `0` is the reference date (1 January
    /// 2001, 00:00:00 UTC), and each tick is 1 ms later:
    ///
    /// ```swift
    /// let scheduler = RunLoop.test
    /// var fired = false
    /// scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { fired = true }
    /// scheduler.advance(by: .milliseconds(999))   // fired == false
    /// scheduler.advance(by: .milliseconds(1))     // fired == true
    /// ```
    public static var test: TestSchedulerOf<RunLoop> {
        TestSchedulerOf<RunLoop>(label: "RunLoop.test")
    }
}
