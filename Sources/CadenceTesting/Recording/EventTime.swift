/// When an event arrived: the tick of the expectation's virtual clock, or — with no clock — the wall-clock time since
/// `expect(_:)` was called.
public enum EventTime: Sendable, Hashable, CustomStringConvertible {
    /// The virtual clock's tick (1 tick = 1 ms).
    case tick(Int64)
    /// Wall-clock time since `expect(_:)` subscribed.
    case elapsed(Duration)

    /// `"tick 5"`, or `"+12.5 ms"`.
    public var description: String {
        switch self {
        case let .tick(tick): "tick \(tick)"
        case let .elapsed(duration): "+\(EventTime.milliseconds(duration)) ms"
        }
    }

    /// `duration` in milliseconds with at most one decimal: `"12.5"`, `"0"`, `"1200"`.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let tenths = seconds * 10_000 + attoseconds / 100_000_000_000_000
        let sign = tenths < 0 ? "-" : ""
        let whole = tenths.magnitude / 10
        let fraction = tenths.magnitude % 10
        return sign + (fraction == 0 ? "\(whole)" : "\(whole).\(fraction)")
    }
}
