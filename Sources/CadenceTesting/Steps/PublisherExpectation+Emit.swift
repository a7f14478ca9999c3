extension PublisherExpectation where Output: Equatable {
    /// Expects exactly `values` as the next values, in order — no completion or other value in between.
    ///
    /// ```swift
    /// expect([1, 2, 3].publisher).toEmit([1, 2, 3]).thenFinish()
    /// expect(search.results, on: clock).toEmit([[], ["swift"]], within: .milliseconds(300))
    /// ```
    ///
    /// The step fails at the first value that differs, at a completion that comes first, or when a value has not
    /// arrived by the end of its budget — saying when it did arrive, if it came late:
    ///
    /// ```text
    /// toEmit([1, 2], within: .ticks(5)) failed: value 2 of 2 (2) did not arrive within 5 ticks (by tick 5); it arrived at tick 8, 3 ticks late.
    ///
    ///     expect(PassthroughSubject<Int, Never>)
    ///   ✗   .toEmit([1, 2], within: .ticks(5))
    ///
    ///      tick  received      expected
    ///         0  subscription
    ///         3  1             1         toEmit([1, 2], within: .ticks(5))
    ///   →     5  (nothing)     2         toEmit([1, 2], within: .ticks(5))
    ///         8  2
    /// ```
    ///
    /// When the output is itself an array, a literal that could be either reads as one value: for a publisher of
    /// `[String]`, `toEmit([])` expects one empty array and `toEmit([[], ["swift"]])` two values.
    ///
    /// - Parameters:
    ///   - values: The values, at least one; the step consumes exactly these.
    ///   - budget: How long, in virtual time from when the step starts, the last of the values may take to arrive;
    ///     without one the clock runs until they arrive or it goes idle.
    @discardableResult
    @_disfavoredOverload
    public func toEmit(
        _ values: [Output],
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        run(
            emit(
                values, name: "toEmit", timing: .within(budget),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )))
    }

    /// Expects exactly `values` as the next values, in order; reads as the step after another (see `toEmit(_:within:)`).
    ///
    /// ```swift
    /// expect(["a", "b", "c"].publisher).toEmit("a").thenEmit(["b", "c"]).thenFinish()
    /// ```
    @discardableResult
    @_disfavoredOverload
    public func thenEmit(
        _ values: [Output],
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        run(
            emit(
                values, name: "thenEmit", timing: .within(budget),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )))
    }

    /// Expects `value` as the next value.
    ///
    /// ```swift
    /// expect(Just(7)).toEmit(7).thenFinish()
    /// ```
    ///
    /// A different value fails the step at that value (on a virtual clock, with its tick):
    ///
    /// ```text
    /// toEmit(1) failed: the value differs: expected 1, received 2.
    ///
    ///     expect(Just<Int>)
    ///   ✗   .toEmit(1)
    ///
    ///      received      expected
    ///      subscription
    ///   →  2             1         toEmit(1)
    ///      finished
    /// ```
    ///
    /// - Parameter budget: How long, in virtual time from when the step starts, the value may take to arrive; without
    ///   one the clock runs until it arrives or the clock goes idle.
    @discardableResult
    public func toEmit(
        _ value: Output,
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        run(
            emit(
                [value], name: "toEmit", single: true, timing: .within(budget),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )))
    }

    /// Expects `value` as the next value; reads as the step after another (see `toEmit(_:within:)`).
    ///
    /// ```swift
    /// expect(model.$isLoading, on: clock).toEmit(false).thenEmit(true).thenEmit(false, within: .seconds(2))
    /// ```
    @discardableResult
    public func thenEmit(
        _ value: Output,
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        run(
            emit(
                [value], name: "thenEmit", single: true, timing: .within(budget),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )))
    }

    /// The step `name` that expects exactly `values` next, timed by `timing`; `single` when written with one value.
    private func emit(
        _ values: [Output],
        name: String,
        single: Bool = false,
        timing: StepTiming,
        at location: SourceCodeLocation
    ) -> WrittenStep<Output, Failure> {
        let step = ChainStep(
            EmitStep<Output, Failure>(values: values, single: single), name: name, timing: timing,
            window: timing.budget, location: location
        )
        if let problem = values.isEmpty ? .noValues(wallClock: timing.isWallClock) : timing.problem {
            return .rejected(step, problem)
        }
        return .ready(step)
    }
}

/// The step of `toEmit(_:)`: exactly `values` next, in order — no completion or other value in between.
struct EmitStep<Output: Equatable, Failure: Error>: ExpectationStep {
    let values: [Output]
    /// Whether the step was written with one value (`toEmit(1)`).
    let single: Bool

    var arguments: StepArguments { .values(values.map { $0 as Any }, single: single) }

    func evaluate(_ events: ArraySlice<TimedEvent<Output, Failure>>, isFinal: Bool) -> StepOutcome {
        evaluate(events, isFinal: isFinal, known: 0)
    }

    func evaluate(_ events: ArraySlice<TimedEvent<Output, Failure>>, isFinal: Bool, known: Int) -> StepOutcome {
        let count = values.count
        var index = known
        // Positions, not `dropFirst` and a `for` loop: in unspecialised code each of those asks the runtime for the
        // metadata of another generic type (the slice, its range, an optional event).
        var position = events.startIndex + min(known, events.count)
        while index < count, position < events.endIndex {
            defer { position += 1 }
            switch events[position].kind {
            case .subscription:
                return secondSubscription(at: index)
            case .value:
                guard case let .value(value) = events[position].event else { break }
                if value != values[index] { return differs(at: index, received: value) }
                index += 1
            case .finished, .failure:
                guard case let .completion(completion) = events[position].event else { break }
                return completed(completion, at: index)
            }
        }
        if index == count { return .satisfied(consumed: count) }
        if isFinal { return missing(at: index) }
        return .pending
    }

    /// A second subscription where value `index` was expected.
    func secondSubscription(at index: Int) -> StepOutcome {
        .failed(
            StepDivergence(
                .received(.secondSubscription, expected: .value(values[index])), matched: index, atEvent: true
            ))
    }

    /// `value` where value `index`, a different one, was expected.
    func differs(at index: Int, received value: Output) -> StepOutcome {
        .failed(
            StepDivergence(
                .differs(.ordinal(ordinal, index), expected: values[index], received: value),
                matched: index, atEvent: true, difference: (values[index], value)
            ))
    }

    /// `completion` where value `index` was expected.
    func completed(_ completion: Subscribers.Completion<Failure>, at index: Int) -> StepOutcome {
        .failed(
            StepDivergence(
                .received(Received(completion), expected: .ordinalValue(ordinal, index, values[index])),
                matched: index, atEvent: true
            ))
    }

    /// Value `index` for want of which the step fails, once nothing more can arrive.
    func missing(at index: Int) -> StepOutcome {
        .failed(
            StepDivergence(
                .missing(.ordinalValue(ordinal, index, values[index])), matched: index, atEvent: false
            ))
    }

    func expectation(at index: Int, of count: Int) -> StepExpectation { .value(values[index]) }

    func missing(after consumed: Int) -> StepExpectation {
        consumed < values.count ? .value(values[consumed]) : .nothing
    }

    private var ordinal: StepText.Ordinal { StepText.Ordinal(count: values.count, single: single) }
}

// MARK: - Wall clock (timeout:)

extension PublisherExpectation where Output: Equatable {
    /// Waits, in wall-clock time, for exactly `values` as the next values, in order — no completion or other value in
    /// between.
    ///
    /// The `async` form of `toEmit(_:within:)`, for publishers on real schedulers and for `AsyncSequence`s: it
    /// suspends without blocking a thread until the values arrive, and fails as soon as an event rules them out — not
    /// when the timeout runs out.
    ///
    /// ```swift
    /// await expect(client.search("swift")).toEmit([["swift"]], timeout: .seconds(1)).thenFinish(timeout: .seconds(1))
    /// ```
    ///
    /// ```text
    /// toEmit([1, 2], timeout: .milliseconds(200)) failed: value 2 of 2 (2) did not arrive within the 200 ms timeout.
    /// ```
    ///
    /// - Parameter timeout: How long, from when the step starts, the last of the values may take to arrive.
    @discardableResult
    @_disfavoredOverload
    public func toEmit(
        _ values: [Output],
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await run(
            emit(
                values, name: "toEmit", timing: .timeout(timeout),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )), timeout: timeout)
    }

    /// Waits, in wall-clock time, for exactly `values` as the next values; reads as the step after another (see
    /// `toEmit(_:timeout:)`).
    @discardableResult
    @_disfavoredOverload
    public func thenEmit(
        _ values: [Output],
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await run(
            emit(
                values, name: "thenEmit", timing: .timeout(timeout),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )), timeout: timeout)
    }

    /// Waits, in wall-clock time, for `value` as the next value (see `toEmit(_:timeout:)`).
    @discardableResult
    public func toEmit(
        _ value: Output,
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await run(
            emit(
                [value], name: "toEmit", single: true, timing: .timeout(timeout),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )), timeout: timeout)
    }

    /// Waits, in wall-clock time, for `value` as the next value; reads as the step after another.
    @discardableResult
    public func thenEmit(
        _ value: Output,
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await run(
            emit(
                [value], name: "thenEmit", single: true, timing: .timeout(timeout),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )), timeout: timeout)
    }

}
