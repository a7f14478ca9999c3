import Foundation

extension RunLoop: Scheduler {
    /// The scheduler time type used by the run loop: a `Date`.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, DateBackedSchedulerTime {
        /// The date represented by this type.
        public var date: Date

        /// Creates a run loop time type instance from a date.
        public init(_ date: Date) {
            self.date = date
        }

        /// An interval of time in seconds, a `TimeInterval`.
        ///
        /// As in Combine, ``magnitude`` is the signed interval itself, literals count seconds, and the product of two
        /// strides multiplies their seconds.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
            Codable, TimeIntervalSchedulerStride
        {
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

            /// An interval of `timeInterval` seconds.
            public init(_ timeInterval: TimeInterval) {
                magnitude = timeInterval
            }
        }
    }

    /// Options that affect the operation of the run loop scheduler; there are none.
    public struct SchedulerOptions {}

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
