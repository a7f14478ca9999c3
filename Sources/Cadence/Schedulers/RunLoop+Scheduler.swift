#if !canImport(Combine)
import Foundation

extension RunLoop: Scheduler {
    /// The scheduler time type used by the run loop: a `Date`.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The date represented by this type.
        public var date: Date

        /// Creates a run loop time type instance from a date.
        public init(_ date: Date) {
            self.date = date
        }

        /// The interval from this time to `other`, in seconds.
        public func distance(to other: SchedulerTimeType) -> Stride {
            Stride(other.date.timeIntervalSinceReferenceDate - date.timeIntervalSinceReferenceDate)
        }

        /// The time `n` seconds after this one.
        public func advanced(by n: Stride) -> SchedulerTimeType {
            SchedulerTimeType(date.addingTimeInterval(n.magnitude))
        }

        /// An interval of time in seconds, a `TimeInterval`.
        ///
        /// As in Combine, ``magnitude`` is the signed interval itself, literals count seconds, and the product of two
        /// strides multiplies their seconds.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
            Codable, Sendable {
            /// A floating-point literal counts seconds.
            public typealias FloatLiteralType = TimeInterval
            /// An integer literal counts seconds.
            public typealias IntegerLiteralType = TimeInterval
            /// The type of ``magnitude``: seconds.
            public typealias Magnitude = TimeInterval

            /// The value of this time interval in seconds (negative for a negative interval).
            public var magnitude: TimeInterval

            /// The value of this time interval in seconds.
            public var timeInterval: TimeInterval { magnitude }

            /// An interval of `value` seconds.
            public init(integerLiteral value: TimeInterval) {
                magnitude = value
            }

            /// An interval of `value` seconds.
            public init(floatLiteral value: TimeInterval) {
                magnitude = value
            }

            /// An interval of `timeInterval` seconds.
            public init(_ timeInterval: TimeInterval) {
                magnitude = timeInterval
            }

            /// An interval of `source` seconds, or `nil` when `source` has no exact `TimeInterval` value.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = TimeInterval(exactly: source) else { return nil }
                magnitude = value
            }

            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }
            public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }
            public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs.magnitude *= rhs.magnitude }
            public static func += (lhs: inout Stride, rhs: Stride) { lhs.magnitude += rhs.magnitude }
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs.magnitude -= rhs.magnitude }

            /// `s` seconds.
            public static func seconds(_ s: Int) -> Stride { Stride(TimeInterval(s)) }
            /// `s` seconds.
            public static func seconds(_ s: Double) -> Stride { Stride(s) }
            /// `ms` milliseconds.
            public static func milliseconds(_ ms: Int) -> Stride { Stride(TimeInterval(ms) / 1_000) }
            /// `us` microseconds.
            public static func microseconds(_ us: Int) -> Stride { Stride(TimeInterval(us) / 1_000_000) }
            /// `ns` nanoseconds.
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(TimeInterval(ns) / 1_000_000_000) }
        }
    }

    /// Options that affect the operation of the run loop scheduler; there are none.
    public struct SchedulerOptions: Sendable {}

    /// `Date()`.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

    /// Zero seconds.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Performs `action` on the run loop, in its default mode, at its next pass.
    ///
    /// Actions scheduled this way run in the order they were scheduled. A run loop sleeping in another thread is
    /// woken up to run it (swift-corelibs-foundation's `perform` alone would leave it waiting for its next event).
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let transfer = SchedulerActionTransfer(action)
        perform { transfer.run() }
        add(Timer(fire: Date(), interval: 0, repeats: false) { _ in }, forMode: .default)
    }

    /// Performs `action` on the run loop, in its default mode, on a one-shot `Timer` that fires at `date` with
    /// `tolerance`.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let transfer = SchedulerActionTransfer(action)
        let timer = Timer(fire: date.date, interval: 0, repeats: false) { _ in transfer.run() }
        timer.tolerance = max(tolerance.timeInterval, 0)
        add(timer, forMode: .default)
    }

    /// Performs `action` on the run loop, in its default mode, on a repeating `Timer` that fires at `date` and then
    /// every `interval`, until the returned cancellable is cancelled (or released), which invalidates the timer.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> Cancellable {
        let transfer = SchedulerActionTransfer(action)
        let timer = Timer(fire: date.date, interval: interval.timeInterval, repeats: true) { _ in transfer.run() }
        timer.tolerance = max(tolerance.timeInterval, 0)
        add(timer, forMode: .default)
        return AnyCancellable { timer.invalidate() }
    }
}

#endif
