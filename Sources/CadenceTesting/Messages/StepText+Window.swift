/// The sentences of the window step (`toEmitNothing`).
extension StepText {
    /// `"nothing through tick 299"` on a virtual clock (`last` is the window's last tick); `"nothing for 299 ticks"`
    /// with none, as written; `"nothing for 250 ms"` or `"nothing for 2 s"` on the wall clock.
    static func quiet(through last: Int64?, window: Duration, synchronousOnly: Bool) -> String {
        if let last { return "nothing through tick \(last)" }
        if synchronousOnly { return "nothing for \(VirtualTicks.describe(window))" }
        return "nothing for \(WallClockText.describe(window))"
    }

    /// `"1 tick early"`, `"150 ticks early"`.
    static func early(by ticks: Int64) -> String {
        ticks == 1 ? "1 tick early" : "\(ticks) ticks early"
    }

    /// `"expected nothing for 5 ticks, received 1 synchronously (…)"`.
    static func synchronously(_ expected: String, received: String) -> String {
        "expected \(expected), received \(received) synchronously (with no virtual clock, only what is delivered "
            + "synchronously can be checked)"
    }
}
