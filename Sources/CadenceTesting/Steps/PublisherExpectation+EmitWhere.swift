extension PublisherExpectation {
    /// Expects the next value to satisfy `predicate` — for values that are not `Equatable`, or only partly known.
    ///
    /// ```swift
    /// expect(search.results, on: clock).toEmit(where: { $0.count == 3 }, within: .milliseconds(300))
    /// ```
    ///
    /// The predicate is called once per value, on the thread that runs the step. A value that does not satisfy it
    /// fails the step at that value (the chain prints the predicate as `{ … }`):
    ///
    /// ```text
    /// toEmit(where: { … }) failed: expected a value matching the predicate, received 7 at tick 1.
    ///
    ///     expect(PassthroughSubject<Int, Never>)
    ///   ✗   .toEmit(where: { … })
    ///
    ///      tick  received      expected
    ///         0  subscription
    ///   →     1  7             (a match)  toEmit(where: { … })
    /// ```
    ///
    /// - Parameters:
    ///   - predicate: What the next value must satisfy.
    ///   - budget: How long, in virtual time from when the step starts, the value may take to arrive; without one the
    ///     clock runs until it arrives or the clock goes idle.
    @discardableResult
    public func toEmit(
        where predicate: @escaping (Output) -> Bool,
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        run(
            emit(
                where: predicate, name: "toEmit", timing: .within(budget),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )))
    }

    /// Expects the next value to satisfy `predicate`; reads as the step after another (see `toEmit(where:within:)`).
    ///
    /// ```swift
    /// expect(model.$state, on: clock).toEmit(.idle).thenEmit(where: { $0.isLoading }).thenEmit(.idle)
    /// ```
    @discardableResult
    public func thenEmit(
        where predicate: @escaping (Output) -> Bool,
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        run(
            emit(
                where: predicate, name: "thenEmit", timing: .within(budget),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )))
    }

    /// The step `name` that expects the next value to satisfy `predicate`, timed by `timing`.
    private func emit(
        where predicate: @escaping (Output) -> Bool,
        name: String,
        timing: StepTiming,
        at location: SourceCodeLocation
    ) -> WrittenStep<Output, Failure> {
        let step = ChainStep(
            EmitWhereStep<Output, Failure>(answers: PredicateAnswers(predicate)), name: name, timing: timing,
            window: timing.budget, location: location
        )
        if let problem = timing.problem { return .rejected(step, problem) }
        return .ready(step)
    }
}

/// The step of `toEmit(where:)`: the next value satisfies a predicate.
struct EmitWhereStep<Output, Failure: Error>: ExpectationStep {
    let answers: PredicateAnswers<Output>

    var arguments: StepArguments { .predicate }

    func evaluate(_ events: ArraySlice<TimedEvent<Output, Failure>>, isFinal: Bool) -> StepOutcome {
        guard let index = events.indices.first else {
            return isFinal ? .failed(StepDivergence(.missing(.matchingValue), matched: 0, atEvent: false)) : .pending
        }
        if case let .value(value) = events[index].event, answers.matches(value, at: index) {
            return .satisfied(consumed: 1)
        }
        return .failed(
            StepDivergence(
                .received(Received(events[index].event), expected: .matchingValue), matched: 0, atEvent: true
            ))
    }

    func expectation(at index: Int, of count: Int) -> StepExpectation { .match }

    func missing(after consumed: Int) -> StepExpectation { consumed < 1 ? .match : .nothing }
}

// MARK: - Wall clock (timeout:)

extension PublisherExpectation {
    /// Waits, in wall-clock time, for a next value for which `predicate` returns true.
    ///
    /// The `async` form of `toEmit(where:within:)` (see `toEmit(_:timeout:)` for how wall-clock steps wait).
    ///
    /// ```swift
    /// await expect(search.results.values).toEmit(where: { !$0.isEmpty }, timeout: .seconds(1))
    /// ```
    ///
    /// - Parameter timeout: How long, from when the step starts, the value may take to arrive.
    @discardableResult
    public func toEmit(
        where predicate: @escaping (Output) -> Bool,
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await run(
            emit(
                where: predicate, name: "toEmit", timing: .timeout(timeout),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )), timeout: timeout)
    }

    /// Waits, in wall-clock time, for a next value for which `predicate` returns true; reads as the step after
    /// another (see `toEmit(where:timeout:)`).
    @discardableResult
    public func thenEmit(
        where predicate: @escaping (Output) -> Bool,
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await run(
            emit(
                where: predicate, name: "thenEmit", timing: .timeout(timeout),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )), timeout: timeout)
    }
}
