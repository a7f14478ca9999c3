/// A scheduler time type that a ``TestScheduler`` can present virtual time as.
///
/// Tick `0` of the clock maps to a fixed origin of the time type; converting back rounds up to a whole tick, so work
/// never runs earlier than asked. Cadence conforms `DispatchQueue`, `RunLoop` and `OperationQueue`'s time types and
/// ``VirtualTime``.
public protocol VirtualTimeConvertible: Strideable where Stride: SchedulerTimeIntervalConvertible {
    /// The time that stands for tick `tick` of a virtual clock.
    init(virtualTick tick: Int64)

    /// The first tick at or after this time.
    var virtualTick: Int64 { get }

    /// The number of whole ticks in `interval`, rounded up.
    static func virtualTicks(in interval: Stride) -> Int64
}
