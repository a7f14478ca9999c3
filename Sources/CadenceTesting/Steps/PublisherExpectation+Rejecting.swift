extension PublisherExpectation {
    /// Appends `step`, which cannot run because of how it was written, and fails the chain with `problem`.
    func reject(_ step: ChainStep<Output, Failure>, _ problem: StepProblem) {
        let (index, failed) = append(step)
        if !failed {
            fail(
                step: index,
                ChainFailure(
                    step: index, reason: .rejected(problem), event: nil, expected: .validStep,
                    gaveUpAt: recorder.now, difference: nil
                ))
        }
    }
}

/// A step that cannot be built because of how it was written (a marble diagram that does not parse): it keeps only
/// the call's arguments, for the message.
struct RejectedStep<Output, Failure: Error>: ExpectationStep {
    let arguments: StepArguments

    func evaluate(_ events: ArraySlice<TimedEvent<Output, Failure>>, isFinal: Bool) -> StepOutcome { .pending }

    func expectation(at index: Int, of count: Int) -> StepExpectation { .none }

    func missing(after consumed: Int) -> StepExpectation { .validStep }
}
