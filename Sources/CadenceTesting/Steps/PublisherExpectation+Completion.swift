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
        run(finish(name: "toFinish", timing: .within(budget), at: SourceCodeLocation(
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
        run(finish(name: "thenFinish", timing: .within(budget), at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        )))
    }

    /// The step `name` that expects the publisher to finish next, timed by `timing`.
    private func finish(name: String, timing: StepTiming, at location: SourceCodeLocation) -> WrittenStep<Output, Failure> {
        let call = { StepText.call(name, "", timing) }
        if let problem = StepText.problem(with: timing) {
            return .rejected(call: call, location: location, problem: problem)
        }
        return .ready(finishStep(call: call, window: timing.budget, location: location))
    }

    /// The step that expects the publisher to finish next; `window` is its budget (nil: wait until settled or idle).
    func finishStep(
        call: @escaping () -> String,
        window: Duration?,
        location: SourceCodeLocation
    ) -> ExpectationStep<Output, Failure> {
        ExpectationStep(
            call: call,
            window: window,
            location: location,
            evaluate: { events, isFinal in
                guard let event = events.first else {
                    return isFinal ? .failed(StepDivergence(StepText.theFinish, matched: 0, atEvent: false)) : .pending
                }
                switch event.event {
                case .completion(.finished):
                    return .satisfied(consumed: 1)
                case let .completion(completion):
                    return .failed(StepDivergence(
                        StepText.expectedFinish(received: EventText.completion(completion)), matched: 0, atEvent: true
                    ))
                case let .value(value):
                    return .failed(StepDivergence(
                        StepText.expectedFinish(received: ValueText.describe(value)), matched: 0, atEvent: true
                    ))
                case .subscription:
                    return .failed(StepDivergence(
                        StepText.expectedFinish(received: EventText.secondSubscription), matched: 0, atEvent: true
                    ))
                }
            },
            expectation: { _, _ in EventText.finished },
            missing: { _ in EventText.finished }
        )
    }
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
        await run(finish(name: "toFinish", timing: .timeout(timeout), at: SourceCodeLocation(
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
        await run(finish(name: "thenFinish", timing: .timeout(timeout), at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        )), timeout: timeout)
    }
}
