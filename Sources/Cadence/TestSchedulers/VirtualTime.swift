/// The time type of a plain ``VirtualScheduler``: a tick count of its clock (1 tick = 1 ms).
public struct VirtualTime: Strideable, Hashable, Sendable, CustomStringConvertible, VirtualTimeConvertible {
    /// Ticks since the clock's origin.
    public var tick: Int64

    /// The time at tick `tick`.
    public init(tick: Int64) {
        self.tick = tick
    }

    public init(virtualTick tick: Int64) {
        self.tick = tick
    }

    public var virtualTick: Int64 { tick }

    public static func virtualTicks(in interval: Stride) -> Int64 { interval.ticks }

    /// The interval from this time to `other`, saturating at the bounds of `Int64`.
    public func distance(to other: VirtualTime) -> Stride {
        Stride(ticks: Stride.saturating(other.tick.subtractingReportingOverflow(tick), negative: other.tick < tick))
    }

    /// The time `stride` later, saturating at the bounds of `Int64` instead of overflowing.
    public func advanced(by stride: Stride) -> VirtualTime {
        VirtualTime(tick: Stride.saturating(tick.addingReportingOverflow(stride.ticks), negative: stride.ticks < 0))
    }

    public static func < (lhs: VirtualTime, rhs: VirtualTime) -> Bool { lhs.tick < rhs.tick }

    /// `"tick 5"`.
    public var description: String { "tick \(tick)" }

    /// An interval of virtual time in whole ticks (1 tick = 1 ms); finer intervals round up to the next tick.
    public struct Stride: SchedulerTimeIntervalConvertible, SignedNumeric, Comparable, Hashable, Sendable,
        ExpressibleByIntegerLiteral, CustomStringConvertible
    {
        /// The number of ticks.
        public var ticks: Int64

        /// An interval of `ticks` ticks.
        public init(ticks: Int64) {
            self.ticks = ticks
        }

        /// An interval of `value` ticks.
        public init(integerLiteral value: Int64) {
            ticks = value
        }

        public init?<T: BinaryInteger>(exactly source: T) {
            guard let ticks = Int64(exactly: source) else { return nil }
            self.ticks = ticks
        }

        /// An interval of `count` ticks.
        public static func ticks(_ count: Int) -> Stride { Stride(ticks: Int64(count)) }

        /// An interval of `s` seconds (saturating at the bounds of `Int64`).
        public static func seconds(_ s: Int) -> Stride {
            Stride(ticks: saturating(Int64(s).multipliedReportingOverflow(by: 1000), negative: s < 0))
        }

        /// An interval of `s` seconds, rounded up to a whole tick; NaN is treated as zero, infinities saturate.
        ///
        /// The product is first rounded to the nearest nanosecond, so binary floating point noise (`1.001 * 1000` is
        /// not exactly `1001`) never adds a tick.
        public static func seconds(_ s: Double) -> Stride {
            guard !s.isNaN else { return Stride(ticks: 0) }
            let nanoseconds = (s * 1e9).rounded()
            let milliseconds = (nanoseconds / 1e6).rounded(.up)
            if milliseconds >= 0x1p63 { return Stride(ticks: .max) }
            if milliseconds < -0x1p63 { return Stride(ticks: .min) }
            return Stride(ticks: Int64(milliseconds))
        }

        public static func milliseconds(_ ms: Int) -> Stride { Stride(ticks: Int64(ms)) }

        /// An interval of `us` microseconds, rounded up to a whole tick.
        public static func microseconds(_ us: Int) -> Stride { Stride(ticks: Self.roundingUp(Int64(us), per: 1000)) }

        /// An interval of `ns` nanoseconds, rounded up to a whole tick.
        public static func nanoseconds(_ ns: Int) -> Stride {
            Stride(ticks: Self.roundingUp(Int64(ns), per: 1_000_000))
        }

        private static func roundingUp(_ value: Int64, per unit: Int64) -> Int64 {
            let quotient = value / unit
            return value % unit > 0 ? quotient + 1 : quotient
        }

        /// The value of an arithmetic result, or the bound it overflowed past.
        static func saturating(_ result: (partialValue: Int64, overflow: Bool), negative: Bool) -> Int64 {
            guard result.overflow else { return result.partialValue }
            return negative ? .min : .max
        }

        public var magnitude: UInt64 { ticks.magnitude }

        // Arithmetic saturates at the bounds of `Int64` instead of trapping: virtual time is test input, and a test's
        // bad input is reported, never a crash.
        public static func + (lhs: Stride, rhs: Stride) -> Stride {
            Stride(ticks: saturating(lhs.ticks.addingReportingOverflow(rhs.ticks), negative: rhs.ticks < 0))
        }

        public static func - (lhs: Stride, rhs: Stride) -> Stride {
            Stride(ticks: saturating(lhs.ticks.subtractingReportingOverflow(rhs.ticks), negative: rhs.ticks > 0))
        }

        public static func * (lhs: Stride, rhs: Stride) -> Stride {
            let negative = (lhs.ticks < 0) != (rhs.ticks < 0)
            return Stride(ticks: saturating(lhs.ticks.multipliedReportingOverflow(by: rhs.ticks), negative: negative))
        }

        public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
        public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
        public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
        public static prefix func - (operand: Stride) -> Stride { Stride(ticks: 0) - operand }
        public mutating func negate() { self = -self }
        public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.ticks < rhs.ticks }

        /// `"5 ticks"`.
        public var description: String { ticks == 1 || ticks == -1 ? "\(ticks) tick" : "\(ticks) ticks" }
    }
}
