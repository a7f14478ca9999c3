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

extension PublisherExpectation {
    /// Appends a step that cannot run because of how it was written, and fails the chain with `reason`.
    func rejecting(call: @escaping () -> String, location: SourceCodeLocation, reason: String) -> Self {
        let step = ExpectationStep<Output, Failure>(
            call: call, location: location,
            evaluate: { _, _ in .pending }, expectation: { _, _ in "" }, missing: { _ in "(a valid step)" }
        )
        let (index, failed) = append(step)
        if !failed {
            fail(step: index, ChainFailure(
                step: index, reason: reason, event: nil, expected: "(a valid step)", gaveUpAt: recorder.now,
                difference: nil
            ))
        }
        return self
    }
}
