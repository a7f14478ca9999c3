import Foundation

/// How the `Date`-based scheduler time types (`RunLoop`'s, `OperationQueue`'s) stand for virtual ticks: tick `0` is
/// the reference date (1 January 2001, 00:00:00 UTC) and each tick is 1 ms later.
enum VirtualTimeDateTicks {
    /// The date of tick `tick`.
    static func date(forTick tick: Int64) -> Date {
        Date(timeIntervalSinceReferenceDate: Double(tick) / 1_000)
    }

    /// The first tick at or after `date`.
    static func tick(for date: Date) -> Int64 {
        ticks(inSeconds: date.timeIntervalSinceReferenceDate)
    }

    /// The whole ticks in `seconds`, rounded up; an error of a few units in the last place (a tick converted to
    /// seconds and back) does not count, NaN is `0`, and infinities saturate.
    static func ticks(inSeconds seconds: Double) -> Int64 {
        guard !seconds.isNaN else { return 0 }
        let exact = seconds * 1_000
        guard exact.isFinite else { return exact < 0 ? .min : .max }
        let rounded = (exact - 16 * exact.ulp).rounded(.up)
        if rounded >= 9.223_372_036_854_775e18 { return .max }
        if rounded <= -9.223_372_036_854_775e18 { return .min }
        return Int64(rounded)
    }
}

/// A `Date`-based scheduler time type (`RunLoop`'s, `OperationQueue`'s), written against the members Combine gives
/// both, so that one implementation of ``VirtualTimeConvertible`` serves each: ticks map to dates as in
/// ``VirtualTimeDateTicks``.
protocol DateBackedVirtualTime: VirtualTimeConvertible where Stride: SecondsBackedStride {
    /// The date this time stands for.
    var date: Date { get }

    /// The time at `date`.
    init(_ date: Date)
}

/// A stride that gives its length in seconds, as the `Date`-based scheduler time types' strides do.
protocol SecondsBackedStride {
    /// The length of the stride in seconds.
    var timeInterval: TimeInterval { get }
}

extension DateBackedVirtualTime {
    /// Tick `tick` as the date `tick` milliseconds after the reference date (1 January 2001, 00:00:00 UTC).
    public init(virtualTick tick: Int64) {
        self.init(VirtualTimeDateTicks.date(forTick: tick))
    }

    /// The first tick at or after this date.
    public var virtualTick: Int64 {
        VirtualTimeDateTicks.tick(for: date)
    }

    /// The whole ticks in `interval`, rounded up (toward positive infinity).
    public static func virtualTicks(in interval: Stride) -> Int64 {
        VirtualTimeDateTicks.ticks(inSeconds: interval.timeInterval)
    }
}
