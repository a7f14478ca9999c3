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
        emit(where: predicate, name: "toEmit", budget: budget, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
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
        emit(where: predicate, name: "thenEmit", budget: budget, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
    }

    private func emit(
        where predicate: @escaping (Output) -> Bool,
        name: String,
        budget: Duration?,
        at location: SourceCodeLocation
    ) -> Self {
        let call = { "\(name)(where: { … }\(StepText.budget(budget)))" }
        if let problem = StepText.problem(with: budget) {
            return rejecting(call: call, location: location, reason: problem)
        }
        perform(emitWhereStep(predicate, call: call, window: budget, location: location))
        return self
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
                        "expected \(StepText.matchingValue), received \(ValueText.describe(value))",
                        matched: 0, atEvent: true
                    ))
                case .subscription:
                    return .failed(StepDivergence(
                        "expected \(StepText.matchingValue), received a second subscription", matched: 0, atEvent: true
                    ))
                case let .completion(completion):
                    return .failed(StepDivergence(
                        "expected \(StepText.matchingValue), received \(EventText.completion(completion))",
                        matched: 0, atEvent: true
                    ))
                }
            },
            expectation: { _, _ in StepText.match },
            missing: { consumed in consumed < 1 ? StepText.match : "(nothing)" }
        )
    }
}

extension StepText {
    /// What a predicate step expects, in a reason: `"a value matching the predicate"`.
    static let matchingValue = "a value matching the predicate"

    /// What a predicate step expects, in the timeline's expected column: `"(a match)"`.
    static let match = "(a match)"
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
        await emit(where: predicate, name: "toEmit", timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
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
        await emit(where: predicate, name: "thenEmit", timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
    }

    private func emit(
        where predicate: @escaping (Output) -> Bool,
        name: String,
        timeout: Duration,
        at location: SourceCodeLocation
    ) async -> Self {
        let call = { "\(name)(where: { … }\(StepText.timeout(timeout)))" }
        if let problem = StepText.problem(withTimeout: timeout) {
            return rejecting(call: call, location: location, reason: problem)
        }
        await perform(emitWhereStep(predicate, call: call, window: nil, location: location), timeout: timeout)
        return self
    }
}
