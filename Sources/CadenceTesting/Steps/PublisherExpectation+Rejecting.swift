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
                step: index, reason: .stated(reason), event: nil, expected: "(a valid step)", gaveUpAt: recorder.now,
                difference: nil
            ))
        }
        return self
    }
}
