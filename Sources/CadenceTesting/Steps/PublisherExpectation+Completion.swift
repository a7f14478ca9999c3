extension PublisherExpectation {
    /// Expects the publisher to finish next, with no value before.
    ///
    /// ```swift
    /// expect(upload.progress).toEmit([0.5, 1.0]).thenFinish(within: .seconds(1))
    /// ```
    ///
    /// A value or a failure instead fails the step at that event; a finish after the budget is reported as late:
    ///
    /// ```text
    /// thenFinish(within: .ticks(2)) failed: the finish did not arrive within 2 ticks (by tick 3); it arrived at tick 7, 4 ticks late.
    /// ```
    ///
    /// - Parameter budget: How long, in virtual time from when the step starts, finishing may take; without one the
    ///   clock runs until the publisher finishes or the clock goes idle.
    @discardableResult
    public func toFinish(
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        run(
            finish(
                name: "toFinish", timing: .within(budget),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )))
    }

    /// Expects the publisher to finish next; reads as the step after another (see `toFinish(within:)`).
    @discardableResult
    public func thenFinish(
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        run(
            finish(
                name: "thenFinish", timing: .within(budget),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )))
    }

    /// The step `name` that expects the publisher to finish next, timed by `timing`.
    private func finish(
        name: String, timing: StepTiming, at location: SourceCodeLocation
    ) -> WrittenStep<Output, Failure> {
        let step = ChainStep(
            FinishStep<Output, Failure>(), name: name, timing: timing, window: timing.budget, location: location
        )
        if let problem = timing.problem { return .rejected(step, problem) }
        return .ready(step)
    }
}

/// The step of `toFinish()`: the publisher finishes next, with no value before.
struct FinishStep<Output, Failure: Error>: ExpectationStep {
    var arguments: StepArguments { .none }

    func evaluate(_ events: ArraySlice<TimedEvent<Output, Failure>>, isFinal: Bool) -> StepOutcome {
        guard let first = events.first else {
            return isFinal ? .failed(StepDivergence(.missing(.theFinish), matched: 0, atEvent: false)) : .pending
        }
        if first.kind == .finished { return .satisfied(consumed: 1) }
        return .failed(StepDivergence(.received(Received(first.event), expected: .finished), matched: 0, atEvent: true))
    }

    func expectation(at index: Int, of count: Int) -> StepExpectation { .finished }

    func missing(after consumed: Int) -> StepExpectation { .finished }
}

// MARK: - Wall clock (timeout:)

extension PublisherExpectation {
    /// Waits, in wall-clock time, for the publisher to finish next, with no value before.
    ///
    /// The `async` form of `toFinish(within:)`: it suspends without blocking a thread until the publisher finishes,
    /// and fails as soon as a value or a failure arrives instead — not when the timeout runs out.
    ///
    /// ```swift
    /// await expect(upload.progress).toEmit([0.5, 1.0], timeout: .seconds(1)).thenFinish(timeout: .seconds(1))
    /// ```
    ///
    /// ```text
    /// toFinish(timeout: .seconds(1)) failed: expected finished, received 7 at +2.4 ms.
    /// ```
    ///
    /// - Parameter timeout: How long, from when the step starts, finishing may take.
    @discardableResult
    public func toFinish(
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await run(
            finish(
                name: "toFinish", timing: .timeout(timeout),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )), timeout: timeout)
    }

    /// Waits, in wall-clock time, for the publisher to finish next; reads as the step after another (see
    /// `toFinish(timeout:)`).
    @discardableResult
    public func thenFinish(
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await run(
            finish(
                name: "thenFinish", timing: .timeout(timeout),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )), timeout: timeout)
    }
}
