/// Shared pieces of the steps' calls and checks.
enum StepText {
    /// `", within: .ticks(5)"` (or without the comma when `first`), or nothing without a budget.
    static func budget(_ budget: Duration?, first: Bool = false) -> String {
        guard let budget else { return "" }
        return (first ? "" : ", ") + "within: \(VirtualTicks.literal(budget))"
    }

    /// What is wrong with a budget, if anything: a negative one can never be met.
    static func problem(with budget: Duration?) -> String? {
        guard let budget, budget < .zero else { return nil }
        return "its budget is negative (\(VirtualTicks.describe(budget))); a step cannot wait less than no time — "
            + "use .ticks(0) for \"at the current tick\""
    }
}

extension StepText {
    /// `", timeout: .seconds(1)"` (or without the comma when `first`).
    static func timeout(_ timeout: Duration, first: Bool = false) -> String {
        (first ? "" : ", ") + "timeout: \(WallClockText.literal(timeout))"
    }

    /// What is wrong with a timeout, if anything: a negative one can never be met.
    static func problem(withTimeout timeout: Duration) -> String? {
        guard timeout < .zero else { return nil }
        return "its timeout is negative (\(WallClockText.describe(timeout))); a step cannot wait less than no time — "
            + "use .zero to check only what has already arrived"
    }
}
