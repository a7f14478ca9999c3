import CadenceSupport

extension PublisherExpectation where Output: Equatable {
    /// Expects `value` to arrive eventually: skips (and consumes) the values before it, but not a completion.
    ///
    /// ```swift
    /// expect(download.progress, on: clock).toEventuallyEmit(1.0, within: .seconds(10)).thenFinish()
    /// ```
    ///
    /// The skipped values show as `(skipped)` in a failure's timeline. When the publisher completes first, the step
    /// fails at the completion and says how many values it skipped:
    ///
    /// ```text
    /// toEventuallyEmit(3) failed: skipped 2 values, then expected the value (3), received finished at tick 2.
    ///
    ///     expect(PassthroughSubject<Int, Never>)
    ///   ✗   .toEventuallyEmit(3)
    ///
    ///      tick  received      expected
    ///         0  subscription
    ///         1  1             (skipped)  toEventuallyEmit(3)
    ///         1  2             (skipped)  toEventuallyEmit(3)
    ///   →     2  finished      3          toEventuallyEmit(3)
    /// ```
    ///
    /// - Parameter budget: How long, in virtual time from when the step starts, `value` may take to arrive; without one
    ///   the clock runs until it arrives or the clock goes idle.
    @discardableResult
    public func toEventuallyEmit(
        _ value: Output,
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        run(
            eventuallyEmit(
                value, name: "toEventuallyEmit", timing: .within(budget),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )))
    }

    /// Expects `value` to arrive eventually, skipping the values before it; reads as the step after another (see
    /// `toEventuallyEmit(_:within:)`).
    ///
    /// ```swift
    /// expect(player.$state, on: clock).toEmit(.idle).thenEventuallyEmit(.playing).thenEmit(.paused)
    /// ```
    @discardableResult
    public func thenEventuallyEmit(
        _ value: Output,
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        run(
            eventuallyEmit(
                value, name: "thenEventuallyEmit", timing: .within(budget),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )))
    }

    /// The step `name` that skips values until one equals `value`, timed by `timing`.
    private func eventuallyEmit(
        _ value: Output,
        name: String,
        timing: StepTiming,
        at location: SourceCodeLocation
    ) -> WrittenStep<Output, Failure> {
        let step = ChainStep(
            EventuallyEmitStep<Output, Failure>(value: value, matching: { $0 == value }), name: name, timing: timing,
            window: timing.budget, location: location
        )
        if let problem = timing.problem { return .rejected(step, problem) }
        return .ready(step)
    }
}

extension PublisherExpectation {
    /// Expects a value satisfying `predicate` to arrive eventually: skips (and consumes) the values before it, but not
    /// a completion.
    ///
    /// ```swift
    /// expect(download.progress, on: clock).toEventuallyEmit(where: { $0 >= 0.5 }, within: .seconds(5))
    /// ```
    ///
    /// The predicate is called once per value, on the thread that runs the step. When nothing matches before the
    /// clock goes idle, the step says how many values it skipped:
    ///
    /// ```text
    /// toEventuallyEmit(where: { … }) failed: a value matching the predicate, after 2 skipped values, never arrived: the clock went idle at tick 2 with nothing scheduled — work on a real DispatchQueue, RunLoop or URLSession never runs on virtual time.
    ///
    ///     expect(Publishers.Delay<…>)
    ///   ✗   .toEventuallyEmit(where: { … })
    ///
    ///      tick  received      expected
    ///         0  subscription
    ///         1  1             (skipped)  toEventuallyEmit(where: { … })
    ///         2  2             (skipped)  toEventuallyEmit(where: { … })
    ///   →     2  (nothing)     (a match)  toEventuallyEmit(where: { … })
    /// ```
    ///
    /// - Parameter budget: How long, in virtual time from when the step starts, a matching value may take to arrive;
    ///   without one the clock runs until it arrives or the clock goes idle.
    @discardableResult
    public func toEventuallyEmit(
        where predicate: @escaping (Output) -> Bool,
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        run(
            eventuallyEmit(
                where: predicate, name: "toEventuallyEmit", timing: .within(budget),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )))
    }

    /// Expects a value satisfying `predicate` to arrive eventually, skipping the values before it; reads as the step
    /// after another (see `toEventuallyEmit(where:within:)`).
    ///
    /// ```swift
    /// expect(upload.progress, on: clock).toEmit(0).thenEventuallyEmit(where: { $0 == 1 }).thenFinish()
    /// ```
    @discardableResult
    public func thenEventuallyEmit(
        where predicate: @escaping (Output) -> Bool,
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        run(
            eventuallyEmit(
                where: predicate, name: "thenEventuallyEmit", timing: .within(budget),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )))
    }

    /// The step `name` that skips values until one satisfies `predicate`, timed by `timing`.
    private func eventuallyEmit(
        where predicate: @escaping (Output) -> Bool,
        name: String,
        timing: StepTiming,
        at location: SourceCodeLocation
    ) -> WrittenStep<Output, Failure> {
        let step = ChainStep(
            EventuallyEmitStep<Output, Failure>(value: nil, matching: predicate), name: name, timing: timing,
            window: timing.budget, location: location
        )
        if let problem = timing.problem { return .rejected(step, problem) }
        return .ready(step)
    }
}

/// The step of `toEventuallyEmit`: skips values until one equals `value` (or, with none, satisfies the predicate).
struct EventuallyEmitStep<Output, Failure: Error>: ExpectationStep {
    /// The value sought, or nil when the step was written with a predicate.
    let value: Output?
    let answers: PredicateAnswers<Output>
    /// How many events the step consumed when it was satisfied (the skipped values and the match), so the timeline
    /// tells the match from skipped values; nil while it has not been, or when it failed after skipping.
    private let satisfiedWith = Locked<Int?>(nil)

    init(value: Output?, matching predicate: @escaping (Output) -> Bool) {
        self.value = value
        answers = PredicateAnswers(predicate)
    }

    var arguments: StepArguments { value.map { .value($0) } ?? .predicate }

    func evaluate(_ events: ArraySlice<TimedEvent<Output, Failure>>, isFinal: Bool) -> StepOutcome {
        evaluate(events, isFinal: isFinal, known: 0)
    }

    func evaluate(_ events: ArraySlice<TimedEvent<Output, Failure>>, isFinal: Bool, known: Int) -> StepOutcome {
        var skipped = known
        for index in events.indices.dropFirst(known) {
            switch events[index].event {
            case let .value(value):
                if answers.matches(value, at: index) {
                    satisfiedWith.withLock { $0 = skipped + 1 }
                    return .satisfied(consumed: skipped + 1)
                }
                skipped += 1
            case .subscription, .completion:
                return .failed(
                    StepDivergence(
                        .skipped(skipped, then: Received(events[index].event), expected: sought), matched: skipped,
                        atEvent: true
                    ))
            }
        }
        guard isFinal else { return .pending }
        return .failed(
            StepDivergence(.missingAfterSkipping(sought, skipped: skipped), matched: skipped, atEvent: false))
    }

    func expectation(at index: Int, of count: Int) -> StepExpectation {
        index == count - 1 && satisfiedWith.withLock({ $0 }) == count ? expected : .skipped
    }

    func missing(after consumed: Int) -> StepExpectation { expected }

    private var sought: Sought { value.map { .theValue($0) } ?? .matchingValue }

    private var expected: StepExpectation { value.map { .value($0) } ?? .match }
}

// MARK: - Wall clock (timeout:)

extension PublisherExpectation where Output: Equatable {
    /// Waits, in wall-clock time, for `value` to arrive eventually: skips (and consumes) the values before it, but not
    /// a completion.
    ///
    /// The `async` form of `toEventuallyEmit(_:within:)` (see `toEmit(_:timeout:)` for how wall-clock steps wait).
    ///
    /// ```swift
    /// await expect(connection.states.values).toEventuallyEmit(.connected, timeout: .seconds(2))
    /// ```
    ///
    /// - Parameter timeout: How long, from when the step starts, `value` may take to arrive.
    @discardableResult
    public func toEventuallyEmit(
        _ value: Output,
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await run(
            eventuallyEmit(
                value, name: "toEventuallyEmit", timing: .timeout(timeout),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )), timeout: timeout)
    }

    /// Waits, in wall-clock time, for `value` to arrive eventually; reads as the step after another (see
    /// `toEventuallyEmit(_:timeout:)`).
    @discardableResult
    public func thenEventuallyEmit(
        _ value: Output,
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await run(
            eventuallyEmit(
                value, name: "thenEventuallyEmit", timing: .timeout(timeout),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )), timeout: timeout)
    }
}

extension PublisherExpectation {
    /// Waits, in wall-clock time, for a value satisfying `predicate` to arrive eventually: skips (and consumes) the
    /// values before it, but not a completion.
    ///
    /// The `async` form of `toEventuallyEmit(where:within:)` (see `toEmit(_:timeout:)` for how wall-clock steps
    /// wait). The predicate is called on the task that awaits the step, never while a lock is held.
    ///
    /// ```swift
    /// await expect(download.progress.values).toEventuallyEmit(where: { $0 >= 0.5 }, timeout: .seconds(5))
    /// ```
    ///
    /// - Parameter timeout: How long, from when the step starts, a matching value may take to arrive.
    @discardableResult
    public func toEventuallyEmit(
        where predicate: @escaping (Output) -> Bool,
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await run(
            eventuallyEmit(
                where: predicate, name: "toEventuallyEmit", timing: .timeout(timeout),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )), timeout: timeout)
    }

    /// Waits, in wall-clock time, for a value satisfying `predicate` to arrive eventually; reads as the step after
    /// another (see `toEventuallyEmit(where:timeout:)`).
    @discardableResult
    public func thenEventuallyEmit(
        where predicate: @escaping (Output) -> Bool,
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await run(
            eventuallyEmit(
                where: predicate, name: "thenEventuallyEmit", timing: .timeout(timeout),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )), timeout: timeout)
    }
}
