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
