/// A scheduler for performing synchronous actions.
///
/// Every action runs at once, on the calling thread, before `schedule` returns: a date is ignored, and a repeating
/// action runs exactly once. Its time never moves (every `SchedulerTimeType` is equal to every other), so it cannot
/// drive time-based operators such as `delay` or `debounce` — use a ``TestScheduler`` for those.
///
/// ```swift
/// Just(1)
///     .receive(on: ImmediateScheduler.shared)
///     .sink { print($0) }   // prints 1 before `sink` returns
/// ```
public struct ImmediateScheduler: Scheduler {
    /// The time type used by the immediate scheduler: a single instant that never advances.
    public struct SchedulerTimeType: Strideable {
        init() {}

        /// The distance to another immediate scheduler time: always `0`.
        public func distance(to other: SchedulerTimeType) -> Stride { 0 }

        /// The same time: advancing is meaningless for an immediate scheduler.
        public func advanced(by n: Stride) -> SchedulerTimeType { SchedulerTimeType() }

        /// The increment by which the immediate scheduler counts time.
        ///
        /// Its `magnitude` is a plain count: the `seconds(_:)`, `milliseconds(_:)`, … factories all return `0`, as
        /// Combine's do, because an immediate scheduler has no notion of elapsed time. A floating-point literal is
        /// truncated toward zero (saturating at the bounds of `Int`).
        public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable,
            SchedulerTimeIntervalConvertible, MagnitudeSchedulerStride
        {
            /// The type used when evaluating floating-point literals.
            public typealias FloatLiteralType = Double
            /// The type used when evaluating integer literals.
            public typealias IntegerLiteralType = Int
            /// The type used for expressing the stride's magnitude.
            public typealias Magnitude = Int

            /// The value of this time interval.
            public var magnitude: Int

            /// An interval of `value`.
            public init(_ value: Int) {
                magnitude = value
            }

            /// An interval of `value`, truncated toward zero.
            public init(floatLiteral value: Double) {
                if value.isNaN {
                    magnitude = 0
                } else if value >= Double(Int.max) {
                    magnitude = .max
                } else if value <= Double(Int.min) {
                    magnitude = .min
                } else {
                    magnitude = Int(value)
                }
            }

            /// Zero: the immediate scheduler has no notion of elapsed time.
            public static func seconds(_ s: Int) -> Stride { 0 }
            /// Zero: the immediate scheduler has no notion of elapsed time.
            public static func seconds(_ s: Double) -> Stride { 0 }
            /// Zero: the immediate scheduler has no notion of elapsed time.
            public static func milliseconds(_ ms: Int) -> Stride { 0 }
            /// Zero: the immediate scheduler has no notion of elapsed time.
            public static func microseconds(_ us: Int) -> Stride { 0 }
            /// Zero: the immediate scheduler has no notion of elapsed time.
            public static func nanoseconds(_ ns: Int) -> Stride { 0 }
        }
    }

    /// The immediate scheduler accepts no options.
    public typealias SchedulerOptions = Never

    /// The shared instance of the immediate scheduler; it is the only one.
    // Not Sendable, as in Apple's Combine, yet safe to share: it has no stored state.
    nonisolated(unsafe) public static let shared = ImmediateScheduler()

    private init() {}

    /// The immediate scheduler's one and only moment in time.
    public var now: SchedulerTimeType { SchedulerTimeType() }

    /// Zero.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Runs `action` at once, on the calling thread.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        action()
    }

    /// Runs `action` at once, on the calling thread: the date is ignored.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        action()
    }

    /// Runs `action` once, at once, on the calling thread, and returns a cancellable that does nothing: the date and
    /// the interval are ignored.
    @discardableResult
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> Cancellable {
        action()
        return Subscriptions.empty
    }
}
