extension PublisherExpectation {
    /// Appends a step that cannot run because of how it was written, and fails the chain with `problem`.
    func rejecting(call: @escaping () -> String, location: SourceCodeLocation, problem: StepProblem) -> Self {
        let step = ExpectationStep<Output, Failure>(
            call: call, location: location,
            evaluate: { _, _ in .pending }, expectation: { _, _ in "" }, missing: { _ in StepText.validStep }
        )
        let (index, failed) = append(step)
        if !failed {
            fail(step: index, ChainFailure(
                step: index, reason: .stated(StepText.describe(problem)), event: nil, expected: StepText.validStep,
                gaveUpAt: recorder.now, difference: nil
            ))
        }
        return self
    }
}

extension PublisherExpectation {
    func rejecting(call: @escaping () -> String, location: SourceCodeLocation, reason: String) -> Self {
        rejecting(call: call, location: location, problem: .stated(reason))
    }
}
