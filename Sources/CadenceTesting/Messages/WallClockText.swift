/// How wall-clock timeouts and windows read in calls and failure messages.
enum WallClockText {
    /// The duration as a call prints it: `.seconds(1)`, `.milliseconds(200)`, `.microseconds(50)`,
    /// `.nanoseconds(7)`, or `.zero`.
    static func literal(_ duration: Duration) -> String {
        if duration == .zero { return ".zero" }
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return ".seconds(\(seconds))" }
        for (name, attosecondsPerUnit) in [
            ("milliseconds", 1_000_000_000_000_000), ("microseconds", 1_000_000_000_000),
            ("nanoseconds", 1_000_000_000),
        ] as [(String, Int64)] {
            guard attoseconds % attosecondsPerUnit == 0 else { continue }
            let unitsPerSecond = 1_000_000_000_000_000_000 / attosecondsPerUnit
            let (scaled, overflow) = seconds.multipliedReportingOverflow(by: unitsPerSecond)
            guard !overflow else { break }
            return ".\(name)(\(scaled + attoseconds / attosecondsPerUnit))"
        }
        return "\(duration)"
    }

    /// The duration as a sentence reads it: `"1 s"`, `"1.25 s"`, `"200 ms"`, `"12.5 ms"` (at most one decimal of a
    /// millisecond under a second, three of a second above).
    static func describe(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return "\(seconds) s" }
        if seconds == 0 { return "\(EventTime.milliseconds(duration)) ms" }
        var decimals = String(attoseconds.magnitude / 1_000_000_000_000_000)
        decimals = String(repeating: "0", count: 3 - decimals.count) + decimals
        while decimals.hasSuffix("0") { decimals.removeLast() }
        let sign = seconds < 0 || attoseconds < 0 ? "-" : ""
        return decimals.isEmpty ? "\(sign)\(seconds.magnitude) s" : "\(sign)\(seconds.magnitude).\(decimals) s"
    }
}
