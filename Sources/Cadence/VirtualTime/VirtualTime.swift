#if canImport(Combine)
import Combine
#endif

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

    public func distance(to other: VirtualTime) -> Stride {
        Stride(ticks: other.tick &- tick)
    }

    public func advanced(by stride: Stride) -> VirtualTime {
        let (sum, overflow) = tick.addingReportingOverflow(stride.ticks)
        return VirtualTime(tick: overflow ? (stride.ticks < 0 ? .min : .max) : sum)
    }

    /// `"tick 5"`.
    public var description: String { "tick \(tick)" }

    /// An interval of virtual time in whole ticks (1 tick = 1 ms); finer intervals round up to the next tick.
    public struct Stride: SchedulerTimeIntervalConvertible, SignedNumeric, Comparable, Hashable, Sendable,
        ExpressibleByIntegerLiteral, CustomStringConvertible {
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

        public static func seconds(_ s: Int) -> Stride {
            let (milliseconds, overflow) = Int64(s).multipliedReportingOverflow(by: 1000)
            return Stride(ticks: overflow ? (s < 0 ? .min : .max) : milliseconds)
        }

        public static func seconds(_ s: Double) -> Stride {
            let milliseconds = (s * 1000).rounded(.up)
            guard milliseconds.isFinite else { return Stride(ticks: s < 0 ? .min : .max) }
            if milliseconds >= 9.2e18 { return Stride(ticks: .max) }
            if milliseconds <= -9.2e18 { return Stride(ticks: .min) }
            return Stride(ticks: Int64(milliseconds))
        }

        public static func milliseconds(_ ms: Int) -> Stride { Stride(ticks: Int64(ms)) }

        public static func microseconds(_ us: Int) -> Stride { Stride(ticks: Self.roundingUp(Int64(us), per: 1000)) }

        public static func nanoseconds(_ ns: Int) -> Stride { Stride(ticks: Self.roundingUp(Int64(ns), per: 1_000_000)) }

        private static func roundingUp(_ value: Int64, per unit: Int64) -> Int64 {
            let quotient = value / unit
            return value % unit > 0 ? quotient + 1 : quotient
        }

        public var magnitude: UInt64 { ticks.magnitude }

        public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(ticks: lhs.ticks + rhs.ticks) }
        public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(ticks: lhs.ticks - rhs.ticks) }
        public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(ticks: lhs.ticks * rhs.ticks) }
        public static func += (lhs: inout Stride, rhs: Stride) { lhs.ticks += rhs.ticks }
        public static func -= (lhs: inout Stride, rhs: Stride) { lhs.ticks -= rhs.ticks }
        public static func *= (lhs: inout Stride, rhs: Stride) { lhs.ticks *= rhs.ticks }
        public static prefix func - (operand: Stride) -> Stride { Stride(ticks: -operand.ticks) }
        public mutating func negate() { ticks.negate() }
        public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.ticks < rhs.ticks }

        /// `"5 ticks"`.
        public var description: String { ticks == 1 || ticks == -1 ? "\(ticks) tick" : "\(ticks) ticks" }
    }
}
