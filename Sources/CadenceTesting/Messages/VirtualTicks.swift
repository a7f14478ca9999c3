/// Budgets and windows in virtual ticks (1 tick = 1 ms), as steps count and describe them.
enum VirtualTicks {
    /// The whole ticks in `duration`, rounded up (a step never gives up early).
    static func count(in duration: Duration) -> Int64 {
        Duration.virtualTicks(in: duration)
    }

    /// `"1 tick"`, `"5 ticks"`, `"-1 tick"`.
    static func describe(_ duration: Duration) -> String {
        let ticks = count(in: duration)
        return ticks.magnitude == 1 ? "\(ticks) tick" : "\(ticks) ticks"
    }

    /// The budget as a chain prints it: `.seconds(2)` for whole seconds, else `.ticks(5)` (whole ticks, rounded up).
    static func literal(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0, seconds != 0 { return ".seconds(\(seconds))" }
        return ".ticks(\(count(in: duration)))"
    }
}
