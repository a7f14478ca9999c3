import Foundation

/// A stride that counts seconds in a `TimeInterval`, as `RunLoop`'s and `OperationQueue`'s do: literals count
/// seconds, and the factories convert to seconds.
protocol TimeIntervalSchedulerStride: MagnitudeSchedulerStride, ExpressibleByFloatLiteral,
    SchedulerTimeIntervalConvertible
where Magnitude == TimeInterval, FloatLiteralType == TimeInterval {}

extension TimeIntervalSchedulerStride {
    /// An interval of `value` seconds.
    public init(floatLiteral value: TimeInterval) {
        self.init(value)
    }

    /// `s` seconds.
    public static func seconds(_ s: Int) -> Self { Self(TimeInterval(s)) }
    /// `s` seconds.
    public static func seconds(_ s: Double) -> Self { Self(s) }
    /// `ms` milliseconds.
    public static func milliseconds(_ ms: Int) -> Self { Self(TimeInterval(ms) / 1_000) }
    /// `us` microseconds.
    public static func microseconds(_ us: Int) -> Self { Self(TimeInterval(us) / 1_000_000) }
    /// `ns` nanoseconds.
    public static func nanoseconds(_ ns: Int) -> Self { Self(TimeInterval(ns) / 1_000_000_000) }
}
