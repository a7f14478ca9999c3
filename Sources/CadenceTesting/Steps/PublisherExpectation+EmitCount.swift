extension PublisherExpectation {
    /// Expects exactly `count` more values next, whatever they are — no completion before the last of them.
    ///
    /// Use it when the values themselves are checked elsewhere, or cannot be compared:
    ///
    /// ```swift
    /// expect(ids.publisher).toEmit(count: 3).thenFinish()
    /// ```
    ///
    /// When the publisher completes first, the step fails at the completion:
    ///
    /// ```text
    /// toEmit(count: 3) failed: expected value 3 of 3, received finished at tick 2.
    ///
    ///     expect(PassthroughSubject<Int, Never>)
    ///   ✗   .toEmit(count: 3)
    ///
    ///      tick  received      expected
    ///         0  subscription
    ///         1  10            (any value)  toEmit(count: 3)
    ///         1  20            (any value)  toEmit(count: 3)
    ///   →     2  finished      (any value)  toEmit(count: 3)
    /// ```
    ///
    /// - Parameters:
    ///   - count: How many values; at least 1.
    ///   - budget: How long, in virtual time from when the step starts, the last of the values may take to arrive;
    ///     without one the clock runs until they arrive or it goes idle.
    @discardableResult
    public func toEmit(
        count: Int,
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        run(
            emit(
                count: count, name: "toEmit", timing: .within(budget),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )))
    }

    /// Expects exactly `count` more values next, whatever they are; reads as the step after another (see
    /// `toEmit(count:within:)`).
    ///
    /// ```swift
    /// expect(subject, on: clock).toEmit("ready").thenEmit(count: 2).thenFinish()
    /// ```
    @discardableResult
    public func thenEmit(
        count: Int,
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        run(
            emit(
                count: count, name: "thenEmit", timing: .within(budget),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )))
    }

    /// The step `name` that expects `count` more values next, timed by `timing`.
    private func emit(
        count: Int, name: String, timing: StepTiming, at location: SourceCodeLocation
    ) -> WrittenStep<Output, Failure> {
        let step = ChainStep(
            EmitCountStep<Output, Failure>(count: count), name: name, timing: timing, window: timing.budget,
            location: location
        )
        if let problem = count < 1 ? .count(count, wallClock: timing.isWallClock) : timing.problem {
            return .rejected(step, problem)
        }
        return .ready(step)
    }
}

/// The step of `toEmit(count:)`: exactly `count` more values next, any values.
struct EmitCountStep<Output, Failure: Error>: ExpectationStep {
    let count: Int

    var arguments: StepArguments { .count(count) }

    func evaluate(_ events: ArraySlice<TimedEvent<Output, Failure>>, isFinal: Bool) -> StepOutcome {
        evaluate(events, isFinal: isFinal, known: 0)
    }

    func evaluate(_ events: ArraySlice<TimedEvent<Output, Failure>>, isFinal: Bool, known: Int) -> StepOutcome {
        let ordinal = StepText.Ordinal(count: count, single: count == 1, anyValue: true)
        var index = known
        for event in events.dropFirst(known) {
            guard index < count else { break }
            switch event.event {
            case .value:
                index += 1
            case .subscription:
                return .failed(
                    StepDivergence(
                        .received(.secondSubscription, expected: .ordinal(ordinal, index)), matched: index,
                        atEvent: true
                    ))
            case let .completion(completion):
                return .failed(
                    StepDivergence(
                        .received(Received(completion), expected: .ordinal(ordinal, index)), matched: index,
                        atEvent: true
                    ))
            }
        }
        if index == count { return .satisfied(consumed: count) }
        if isFinal {
            return .failed(StepDivergence(.missing(.ordinal(ordinal, index)), matched: index, atEvent: false))
        }
        return .pending
    }

    func expectation(at index: Int, of count: Int) -> StepExpectation { .anyValue }

    func missing(after consumed: Int) -> StepExpectation { consumed < count ? .anyValue : .nothing }
}

// MARK: - Wall clock (timeout:)

extension PublisherExpectation {
    /// Waits, in wall-clock time, for exactly `count` more values, whatever they are — no completion in between.
    ///
    /// The `async` form of `toEmit(count:within:)` (see `toEmit(_:timeout:)` for how wall-clock steps wait).
    ///
    /// ```swift
    /// await expect(ticker.values).toEmit(count: 3, timeout: .seconds(1))
    /// ```
    ///
    /// - Parameter timeout: How long, from when the step starts, the last of the values may take to arrive.
    @discardableResult
    public func toEmit(
        count: Int,
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await run(
            emit(
                count: count, name: "toEmit", timing: .timeout(timeout),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )), timeout: timeout)
    }

    /// Waits, in wall-clock time, for exactly `count` more values; reads as the step after another (see
    /// `toEmit(count:timeout:)`).
    @discardableResult
    public func thenEmit(
        count: Int,
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await run(
            emit(
                count: count, name: "thenEmit", timing: .timeout(timeout),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )), timeout: timeout)
    }
}
