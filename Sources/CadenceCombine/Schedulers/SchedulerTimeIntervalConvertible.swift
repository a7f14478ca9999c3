/// A type that can express its values as seconds, milliseconds, microseconds and nanoseconds.
///
/// Every scheduler's `SchedulerTimeType.Stride` conforms, so an interval can always be written as `.milliseconds(300)`
/// whatever the scheduler.
public protocol SchedulerTimeIntervalConvertible {
    /// An interval of the given number of whole seconds.
    static func seconds(_ s: Int) -> Self
    /// An interval of the given number of seconds, fractions included.
    static func seconds(_ s: Double) -> Self
    /// An interval of the given number of milliseconds.
    static func milliseconds(_ ms: Int) -> Self
    /// An interval of the given number of microseconds.
    static func microseconds(_ us: Int) -> Self
    /// An interval of the given number of nanoseconds.
    static func nanoseconds(_ ns: Int) -> Self
}
