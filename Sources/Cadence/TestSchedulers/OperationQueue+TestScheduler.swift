import Foundation

/// Ticks as dates: tick `0` is the reference date (1 January 2001, 00:00:00 UTC), each tick 1 ms later.
extension OperationQueue.SchedulerTimeType: VirtualTimeConvertible, DateBackedVirtualTime {}

extension OperationQueue.SchedulerTimeType.Stride: SecondsBackedStride {}

extension OperationQueue {
    /// A test scheduler with `OperationQueue`'s time and options, for code that takes `AnySchedulerOf<OperationQueue>`.
    ///
    /// Each access makes a new TestScheduler on the task's current VirtualClock (or on a new clock when none
    /// is bound), so every test scheduler of a test shares one timeline. Tick `0` is the reference date (1 January
    /// 2001, 00:00:00 UTC), and each tick is 1 ms later:
    ///
    /// ```swift
    /// let scheduler = OperationQueue.test
    /// var fired = false
    /// scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { fired = true }
    /// scheduler.advance(by: .milliseconds(999))   // fired == false
    /// scheduler.advance(by: .milliseconds(1))     // fired == true
    /// ```
    public static var test: TestSchedulerOf<OperationQueue> {
        TestSchedulerOf<OperationQueue>(label: "OperationQueue.test")
    }
}
