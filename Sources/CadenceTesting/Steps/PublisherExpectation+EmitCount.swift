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
        run(emit(count: count, name: "toEmit", timing: .within(budget), at: SourceCodeLocation(
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
        run(emit(count: count, name: "thenEmit", timing: .within(budget), at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        )))
    }

    /// The step `name` that expects `count` more values next, timed by `timing`.
    private func emit(
        count: Int, name: String, timing: StepTiming, at location: SourceCodeLocation
    ) -> WrittenStep<Output, Failure> {
        let call = { StepText.call(name, StepText.countArgument(count), timing) }
        let problem = count < 1 ? .count(count, wallClock: timing.isWallClock) : StepText.problem(with: timing)
        if let problem { return .rejected(call: call, location: location, problem: problem) }
        return .ready(emitCountStep(count, call: call, window: timing.budget, location: location))
    }

    /// The step that expects exactly `count` more values next, any values; `window` is its budget (nil: wait until
    /// settled or idle).
    func emitCountStep(
        _ count: Int,
        call: @escaping () -> String,
        window: Duration?,
        location: SourceCodeLocation
    ) -> ExpectationStep<Output, Failure> {
        let ordinal = StepText.Ordinal(count: count, single: count == 1, anyValue: true)
        return ExpectationStep(
            call: call,
            window: window,
            location: location,
            evaluate: { events, isFinal in
                var index = 0
                for event in events {
                    guard index < count else { break }
                    switch event.event {
                    case .value:
                        index += 1
                    case .subscription:
                        return .failed(StepDivergence(
                            StepText.secondSubscription(expected: ordinal(index)), matched: index, atEvent: true
                        ))
                    case let .completion(completion):
                        return .failed(StepDivergence(
                            StepText.expected(ordinal(index), received: EventText.completion(completion)),
                            matched: index, atEvent: true
                        ))
                    }
                }
                if index == count { return .satisfied(consumed: count) }
                if isFinal { return .failed(StepDivergence(ordinal(index), matched: index, atEvent: false)) }
                return .pending
            },
            expectation: { _, _ in StepText.anyValue },
            missing: { consumed in consumed < count ? StepText.anyValue : StepText.nothing }
        )
    }
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
        await run(emit(count: count, name: "toEmit", timing: .timeout(timeout), at: SourceCodeLocation(
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
        await run(emit(count: count, name: "thenEmit", timing: .timeout(timeout), at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        )), timeout: timeout)
    }
}
