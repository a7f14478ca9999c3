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
        run(eventuallyEmit(value, name: "toEventuallyEmit", timing: .within(budget), at: SourceCodeLocation(
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
        run(eventuallyEmit(value, name: "thenEventuallyEmit", timing: .within(budget), at: SourceCodeLocation(
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
        let call = { StepText.call(name, ValueText.describe(value), timing) }
        if let problem = StepText.problem(with: timing) {
            return .rejected(call: call, location: location, problem: problem)
        }
        return .ready(eventuallyEmitStep(value, call: call, window: timing.budget, location: location))
    }

    /// The step that skips values until one equals `value`; `window` is its budget (nil: wait until settled or idle).
    func eventuallyEmitStep(
        _ value: Output,
        call: @escaping () -> String,
        window: Duration?,
        location: SourceCodeLocation
    ) -> ExpectationStep<Output, Failure> {
        eventuallyStep(
            matching: { $0 == value },
            expected: { ValueText.describe(value) },
            sought: { StepText.theValue(value) },
            call: call, window: window, location: location
        )
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
    /// toEventuallyEmit(where: { … }) failed: a value matching the predicate, after 2 skipped values, never arrived: the clock went idle at tick 2 with nothing scheduled.
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
        run(eventuallyEmit(where: predicate, name: "toEventuallyEmit", timing: .within(budget), at: SourceCodeLocation(
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
        run(eventuallyEmit(where: predicate, name: "thenEventuallyEmit", timing: .within(budget), at: SourceCodeLocation(
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
        let call = { StepText.call(name, StepText.predicateArgument, timing) }
        if let problem = StepText.problem(with: timing) {
            return .rejected(call: call, location: location, problem: problem)
        }
        return .ready(eventuallyEmitStep(where: predicate, call: call, window: timing.budget, location: location))
    }

    /// The step that skips values until one satisfies `predicate`; `window` is its budget (nil: wait until settled or
    /// idle).
    func eventuallyEmitStep(
        where predicate: @escaping (Output) -> Bool,
        call: @escaping () -> String,
        window: Duration?,
        location: SourceCodeLocation
    ) -> ExpectationStep<Output, Failure> {
        eventuallyStep(
            matching: predicate,
            expected: { StepText.match },
            sought: { StepText.matchingValue },
            call: call, window: window, location: location
        )
    }

    /// The step that skips values until one satisfies `predicate`.
    ///
    /// - Parameters:
    ///   - expected: The sought value for the timeline's expected column: `"3"`, `"(a match)"`.
    ///   - sought: The sought value in a reason: `"the value (3)"`, `"a value matching the predicate"`.
    private func eventuallyStep(
        matching predicate: @escaping (Output) -> Bool,
        expected: @escaping () -> String,
        sought: @escaping () -> String,
        call: @escaping () -> String,
        window: Duration?,
        location: SourceCodeLocation
    ) -> ExpectationStep<Output, Failure> {
        let answers = PredicateAnswers(predicate)
        // How many events the step consumed when it was satisfied (the skipped values and the match), so the timeline
        // tells the match from skipped values; nil while it has not been, or when it failed after skipping.
        let satisfiedWith = Locked<Int?>(nil)
        return ExpectationStep(
            call: call,
            window: window,
            location: location,
            evaluate: { events, isFinal in
                var skipped = 0
                for index in events.indices {
                    switch events[index].event {
                    case let .value(value):
                        if answers.matches(value, at: index) {
                            satisfiedWith.withLock { $0 = skipped + 1 }
                            return .satisfied(consumed: skipped + 1)
                        }
                        skipped += 1
                    case .subscription:
                        return .failed(StepDivergence(
                            StepText.instead(of: sought(), skipped: skipped, received: EventText.secondSubscription), matched: skipped, atEvent: true
                        ))
                    case let .completion(completion):
                        return .failed(StepDivergence(
                            StepText.instead(
                                of: sought(), skipped: skipped, received: EventText.completion(completion)
                            ), matched: skipped, atEvent: true
                        ))
                    }
                }
                guard isFinal else { return .pending }
                return .failed(StepDivergence(
                    StepText.sought(sought(), skipped: skipped), matched: skipped, atEvent: false
                ))
            },
            expectation: { index, count in
                index == count - 1 && satisfiedWith.withLock({ $0 }) == count ? expected() : StepText.skipped
            },
            missing: { _ in expected() }
        )
    }
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
        await run(eventuallyEmit(value, name: "toEventuallyEmit", timing: .timeout(timeout), at: SourceCodeLocation(
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
        await run(eventuallyEmit(value, name: "thenEventuallyEmit", timing: .timeout(timeout), at: SourceCodeLocation(
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
        await run(eventuallyEmit(where: predicate, name: "toEventuallyEmit", timing: .timeout(timeout), at: SourceCodeLocation(
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
        await run(eventuallyEmit(where: predicate, name: "thenEventuallyEmit", timing: .timeout(timeout), at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        )), timeout: timeout)
    }
}
