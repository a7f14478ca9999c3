#if canImport(Combine)
import Combine
#endif
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
