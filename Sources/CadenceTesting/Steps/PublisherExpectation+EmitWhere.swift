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
        run(emit(where: predicate, name: "toEmit", timing: .within(budget), at: SourceCodeLocation(
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
        run(emit(where: predicate, name: "thenEmit", timing: .within(budget), at: SourceCodeLocation(
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
        let call = { StepText.call(name, StepText.predicateArgument, timing) }
        if let problem = StepText.problem(with: timing) {
            return .rejected(call: call, location: location, problem: problem)
        }
        return .ready(emitWhereStep(predicate, call: call, window: timing.budget, location: location))
    }

    /// The step that expects the next value to satisfy `predicate`; `window` is its budget (nil: wait until settled
    /// or idle).
    func emitWhereStep(
        _ predicate: @escaping (Output) -> Bool,
        call: @escaping () -> String,
        window: Duration?,
        location: SourceCodeLocation
    ) -> ExpectationStep<Output, Failure> {
        let answers = PredicateAnswers(predicate)
        return ExpectationStep(
            call: call,
            window: window,
            location: location,
            evaluate: { events, isFinal in
                guard let index = events.indices.first else {
                    return isFinal
                        ? .failed(StepDivergence(StepText.matchingValue, matched: 0, atEvent: false)) : .pending
                }
                switch events[index].event {
                case let .value(value):
                    if answers.matches(value, at: index) { return .satisfied(consumed: 1) }
                    return .failed(StepDivergence(
                        StepText.expected(StepText.matchingValue, received: ValueText.describe(value)),
                        matched: 0, atEvent: true
                    ))
                case .subscription:
                    return .failed(StepDivergence(
                        StepText.secondSubscription(expected: StepText.matchingValue), matched: 0, atEvent: true
                    ))
                case let .completion(completion):
                    return .failed(StepDivergence(
                        StepText.expected(StepText.matchingValue, received: EventText.completion(completion)),
                        matched: 0, atEvent: true
                    ))
                }
            },
            expectation: { _, _ in StepText.match },
            missing: { consumed in consumed < 1 ? StepText.match : StepText.nothing }
        )
    }
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
        await run(emit(where: predicate, name: "toEmit", timing: .timeout(timeout), at: SourceCodeLocation(
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
        await run(emit(where: predicate, name: "thenEmit", timing: .timeout(timeout), at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        )), timeout: timeout)
    }
}
