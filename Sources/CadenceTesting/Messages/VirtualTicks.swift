/// Budgets and windows in virtual ticks (1 tick = 1 ms), as steps count and describe them.
enum VirtualTicks {
    /// The whole ticks in `duration`, rounded up (a step never gives up early).
    static func count(in duration: Duration) -> Int64 {
        Duration.virtualTicks(in: duration)
    }

    /// `"1 tick"`, `"5 ticks"`, `"-1 tick"`: whole ticks rounded away from zero, so a negative duration never reads
    /// as `0 ticks`.
    static func describe(_ duration: Duration) -> String {
        let ticks = shown(duration)
        return ticks.magnitude == 1 ? "\(ticks) tick" : "\(ticks) ticks"
    }

    /// The whole ticks a message shows for `duration`: its magnitude rounded up, with its sign (`count(in:)` rounds a
    /// negative fraction of a tick up to `0`).
    private static func shown(_ duration: Duration) -> Int64 {
        duration < .zero ? 0 - count(in: .zero - duration) : count(in: duration)
    }

    /// The budget as a chain prints it: `.seconds(2)` for whole seconds, else `.ticks(5)` (whole ticks, rounded up).
    static func literal(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0, seconds != 0 { return ".seconds(\(seconds))" }
        return ".ticks(\(shown(duration)))"
    }
}
