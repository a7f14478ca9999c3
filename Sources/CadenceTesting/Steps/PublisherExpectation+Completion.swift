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
    @inlinable
    @discardableResult
    public func toFinish(
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        runFinish(name: "toFinish", within: budget, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
    }

    /// Expects the publisher to finish next; reads as the step after another (see `toFinish(within:)`).
    @inlinable
    @discardableResult
    public func thenFinish(
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        runFinish(name: "thenFinish", within: budget, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
    }

    /// Runs the step `name` that expects the publisher to finish next, within `budget`.
    @inlinable @inline(__always)  // as `runEmit` is, for the same reason
    func runFinish(name: String, within budget: Duration?, at location: SourceCodeLocation) -> Self {
        let timing = StepTiming.within(budget)
        let step = finishStep(name: name, timing: timing, at: location)
        if timing.isValid {
            perform(step)
        } else {
            reject(step, noValues: false)
        }
        return self
    }

    /// The chain step of `toFinish`/`thenFinish` (`name`), with the evaluator formed here.
    @inlinable @inline(__always)
    func finishStep(name: String, timing: StepTiming, at location: SourceCodeLocation) -> ChainStep<Output, Failure> {
        ChainStep(
            FinishStep<Output, Failure>(), name: name, timing: timing, window: timing.budget, location: location,
            evaluator: { events, isFinal, _ in FinishStep<Output, Failure>().evaluate(events, isFinal: isFinal) }
        )
    }

    /// The step `name` that expects the publisher to finish next, timed by `timing`.
    @inline(__always)  // as `emit` is, for the same reason
    private func finish(name: String, timing: StepTiming, at location: SourceCodeLocation) -> WrittenStep<Output, Failure> {
        let step = finishStep(name: name, timing: timing, at: location)
        if let problem = timing.problem { return .rejected(step, problem) }
        return .ready(step)
    }
}

/// The step of `toFinish()`: the publisher finishes next, with no value before.
@usableFromInline
struct FinishStep<Output, Failure: Error>: ExpectationStep {
    @inlinable
    init() {}

    @usableFromInline
    var arguments: StepArguments { .none }

    // Inlinable, as `EmitStep`'s is, for the same reason.
    @inlinable
    func evaluate(_ events: ArraySlice<TimedEvent<Output, Failure>>, isFinal: Bool) -> StepOutcome {
        // Indices and a subscript, not `first` or `isEmpty`: unspecialised, an optional event costs a metadata
        // look-up, and `isEmpty` (a `Collection` default) one of the slice's type and its conformance.
        guard events.startIndex < events.endIndex else {
            return isFinal ? missingFinish() : .pending
        }
        if events[events.startIndex].kind == .finished { return .satisfied(consumed: 1) }
        return received(events[events.startIndex].event)
    }

    /// The finish, for want of which the step fails once nothing more can arrive.
    @usableFromInline
    func missingFinish() -> StepOutcome {
        .failed(StepDivergence(.missing(.theFinish), matched: 0, atEvent: false))
    }

    /// `event` where the finish was expected.
    @usableFromInline
    func received(_ event: PublisherEvent<Output, Failure>) -> StepOutcome {
        .failed(StepDivergence(.received(Received(event), expected: .finished), matched: 0, atEvent: true))
    }

    @usableFromInline
    func expectation(at index: Int, of count: Int) -> StepExpectation { .finished }

    @usableFromInline
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
