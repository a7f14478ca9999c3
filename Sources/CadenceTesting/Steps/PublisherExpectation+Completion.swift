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
        finish(name: "toFinish", budget: budget, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
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
        finish(name: "thenFinish", budget: budget, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
    }

    private func finish(name: String, budget: Duration?, at location: SourceCodeLocation) -> Self {
        let call = { "\(name)(\(StepText.budget(budget, first: true)))" }
        if let problem = StepText.problem(with: budget) {
            return rejecting(call: call, location: location, reason: problem)
        }
        perform(finishStep(call: call, window: budget, location: location))
        return self
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
                    return isFinal ? .failed(StepDivergence("the finish", matched: 0, atEvent: false)) : .pending
                }
                switch event.event {
                case .completion(.finished):
                    return .satisfied(consumed: 1)
                case let .completion(completion):
                    return .failed(StepDivergence(
                        "expected finished, received \(EventText.completion(completion))", matched: 0, atEvent: true
                    ))
                case let .value(value):
                    return .failed(StepDivergence(
                        "expected finished, received \(ValueText.describe(value))", matched: 0, atEvent: true
                    ))
                case .subscription:
                    return .failed(StepDivergence(
                        "expected finished, received a second subscription", matched: 0, atEvent: true
                    ))
                }
            },
            expectation: { _, _ in "finished" },
            missing: { _ in "finished" }
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
        await finish(name: "toFinish", timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
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
        await finish(name: "thenFinish", timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
    }

    private func finish(name: String, timeout: Duration, at location: SourceCodeLocation) async -> Self {
        let call = { "\(name)(\(StepText.timeout(timeout, first: true)))" }
        if let problem = StepText.problem(withTimeout: timeout) {
            return rejecting(call: call, location: location, reason: problem)
        }
        await perform(finishStep(call: call, window: nil, location: location), timeout: timeout)
        return self
    }
}
