import Foundation

/// A scheduler stride that is nothing but its signed `magnitude`, as `ImmediateScheduler`'s, `RunLoop`'s and
/// `OperationQueue`'s are in Combine: an integer literal, `init?(exactly:)` and the arithmetic all act on the
/// magnitude (the product of two strides multiplies their magnitudes).
///
/// Internal: each public stride type keeps its own declared members (`magnitude`, `init(_:)`, the literal type
/// aliases); these defaults are the witnesses of the public protocols' requirements, written once.
protocol MagnitudeSchedulerStride: SignedNumeric, Comparable where IntegerLiteralType == Magnitude {
    /// The value of the stride (negative for a negative interval).
    var magnitude: Magnitude { get set }

    /// A stride of `magnitude`.
    init(_ magnitude: Magnitude)
}

extension MagnitudeSchedulerStride {
    /// A stride of `value`.
    public init(integerLiteral value: Magnitude) {
        self.init(value)
    }

    /// A stride of `source`, or `nil` when `source` has no exact value of the magnitude's type.
    public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = Magnitude(exactly: source) else { return nil }
        self.init(value)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.magnitude < rhs.magnitude }
    public static func * (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude * rhs.magnitude) }
    public static func + (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude + rhs.magnitude) }
    public static func - (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude - rhs.magnitude) }
    public static func *= (lhs: inout Self, rhs: Self) { lhs.magnitude *= rhs.magnitude }
    public static func += (lhs: inout Self, rhs: Self) { lhs.magnitude += rhs.magnitude }
    public static func -= (lhs: inout Self, rhs: Self) { lhs.magnitude -= rhs.magnitude }
}

/// A stride that counts seconds in a `TimeInterval`, as `RunLoop`'s and `OperationQueue`'s do: literals count
/// seconds, and the factories convert to seconds.
protocol TimeIntervalSchedulerStride: MagnitudeSchedulerStride, ExpressibleByFloatLiteral,
    SchedulerTimeIntervalConvertible where Magnitude == TimeInterval, FloatLiteralType == TimeInterval {}

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

/// A scheduler time that is a `Date`, as `RunLoop`'s and `OperationQueue`'s are, with a stride in seconds.
protocol DateBackedSchedulerTime: Strideable where Stride: TimeIntervalSchedulerStride {
    /// The date represented by this time.
    var date: Date { get }

    /// The time at `date`.
    init(_ date: Date)
}

extension DateBackedSchedulerTime {
    /// The interval from this time to `other`, in seconds.
    public func distance(to other: Self) -> Stride {
        Stride(other.date.timeIntervalSinceReferenceDate - date.timeIntervalSinceReferenceDate)
    }

    /// The time `n` seconds after this one.
    public func advanced(by n: Stride) -> Self {
        Self(date.addingTimeInterval(n.magnitude))
    }
}

