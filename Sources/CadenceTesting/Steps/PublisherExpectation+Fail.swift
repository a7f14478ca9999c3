extension PublisherExpectation {
    /// Expects the publisher to fail next — with any error — and no value before.
    ///
    /// ```swift
    /// expect(repository.load()).toFail(within: .seconds(2))
    /// ```
    ///
    /// A value or a finish instead fails the step:
    ///
    /// ```text
    /// toFail() failed: expected a failure, received finished at tick 3.
    /// ```
    ///
    /// - Parameter budget: How long, in virtual time from when the step starts, the failure may take to arrive;
    ///   without one the clock runs until it arrives or the clock goes idle.
    @discardableResult
    public func toFail(
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        run(fail(name: "toFail", matcher: .any, timing: .within(budget), at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        )))
    }

    /// Expects the publisher to fail next, with any error; reads as the step after another (see `toFail(within:)`).
    @discardableResult
    public func thenFail(
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        run(fail(name: "thenFail", matcher: .any, timing: .within(budget), at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        )))
    }

    /// Expects the publisher to fail next with an error equal to `error`.
    ///
    /// The failure matches when it is an `E` equal to `error`, so this works for publishers whose `Failure` is
    /// `any Error` too.
    ///
    /// ```swift
    /// expect(repository.load()).toFail(with: APIError.offline, within: .seconds(2))
    /// ```
    ///
    /// A different error fails the step with both:
    ///
    /// ```text
    /// toFail(with: APIError.offline) failed: expected failure(APIError.offline), received failure(APIError.timeout) at tick 2.
    /// ```
    @discardableResult
    public func toFail<E: Error & Equatable>(
        with error: E,
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        run(fail(name: "toFail", matcher: .equal(to: error), timing: .within(budget), at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        )))
    }

    /// Expects the publisher to fail next with an error equal to `error`; reads as the step after another (see
    /// `toFail(with:within:)`).
    @discardableResult
    public func thenFail<E: Error & Equatable>(
        with error: E,
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        run(fail(name: "thenFail", matcher: .equal(to: error), timing: .within(budget), at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        )))
    }

    /// Expects the publisher to fail next with an error for which `predicate` returns true.
    ///
    /// ```swift
    /// expect(upload).toFail(where: { ($0 as? URLError)?.code == .timedOut })
    /// ```
    ///
    /// ```text
    /// toFail(where: { … }) failed: expected a failure matching the predicate, received failure(APIError.offline) at tick 1.
    /// ```
    @discardableResult
    public func toFail(
        where predicate: @escaping (Failure) -> Bool,
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        run(fail(name: "toFail", matcher: .matching(predicate), timing: .within(budget), at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        )))
    }

    /// Expects the publisher to fail next with an error for which `predicate` returns true; reads as the step after
    /// another (see `toFail(where:within:)`).
    @discardableResult
    public func thenFail(
        where predicate: @escaping (Failure) -> Bool,
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        run(fail(name: "thenFail", matcher: .matching(predicate), timing: .within(budget), at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        )))
    }

    /// The step `name` that expects the publisher to fail next with an error `matcher` accepts, timed by `timing`.
    private func fail(
        name: String,
        matcher: FailureMatcher<Failure>,
        timing: StepTiming,
        at location: SourceCodeLocation
    ) -> WrittenStep<Output, Failure> {
        let call = { StepText.call(name, matcher.argument ?? "", timing) }
        if let problem = StepText.problem(with: timing) {
            return .rejected(call: call, location: location, problem: problem)
        }
        return .ready(failStep(matcher, call: call, window: timing.budget, location: location))
    }

    /// The step that expects the publisher to fail next with an error `matcher` accepts; `window` is its budget
    /// (nil: wait until settled or idle).
    func failStep(
        _ matcher: FailureMatcher<Failure>,
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
                    return isFinal ? .failed(StepDivergence(matcher.phrase, matched: 0, atEvent: false)) : .pending
                }
                let received: String
                switch event.event {
                case let .completion(.failure(error)):
                    if matcher.matches(error) { return .satisfied(consumed: 1) }
                    return .failed(StepDivergence(
                        StepText.expected(matcher.phrase, received: EventText.completion(.failure(error))),
                        matched: 0, atEvent: true, difference: matcher.expectedError.map { ($0, error) }
                    ))
                case .completion(.finished):
                    received = EventText.finished
                case let .value(value):
                    received = ValueText.describe(value)
                case .subscription:
                    received = EventText.secondSubscription
                }
                return .failed(StepDivergence(
                    StepText.expected(matcher.phrase, received: received), matched: 0, atEvent: true
                ))
            },
            expectation: { _, _ in matcher.expected },
            missing: { _ in matcher.expected }
        )
    }
}

/// Which failure a `toFail` step accepts, and how its messages name it (built only when a message is).
enum FailureMatcher<Failure: Error> {
    /// Any failure.
    case any
    /// A failure whose error is an `E` equal to `error` (whatever `Failure` is, `any Error` included); `matches`
    /// does the cast and the comparison.
    case equal(error: any Error, matches: (Failure) -> Bool)
    /// A failure the predicate accepts.
    case matching((Failure) -> Bool)

    /// A failure with an `E` equal to `error`.
    static func equal<E: Error & Equatable>(to error: E) -> Self {
        .equal(error: error, matches: { ($0 as? E) == error })
    }

    /// Whether the step accepts `error`.
    func matches(_ error: Failure) -> Bool {
        switch self {
        case .any: true
        case let .equal(_, matches): matches(error)
        case let .matching(predicate): predicate(error)
        }
    }

    /// The call's argument before the budget: `"with: APIError.offline"`, `"where: { … }"`, or nil.
    var argument: String? {
        switch self {
        case .any: nil
        case let .equal(error, _): "with: \(ValueText.describe(error))"
        case .matching: StepText.predicateArgument
        }
    }

    /// The timeline's expected cell: `"failure"`, `"failure(APIError.offline)"`, `"failure(where: …)"`.
    var expected: String {
        switch self {
        case .any: "failure"
        case let .equal(error, _): "failure(\(ValueText.describe(error)))"
        case .matching: "failure(where: …)"
        }
    }

    /// What the step expected, after "expected" and before "never arrived": `"a failure"`,
    /// `"failure(APIError.offline)"`, `"a failure matching the predicate"`.
    var phrase: String {
        switch self {
        case .any: "a failure"
        case .equal: expected
        case .matching: "a failure matching the predicate"
        }
    }

    /// The expected error, for a field-by-field difference with the one received.
    var expectedError: (any Error)? {
        if case let .equal(error, _) = self { return error }
        return nil
    }
}

// MARK: - Wall clock (timeout:)

extension PublisherExpectation {
    /// Waits, in wall-clock time, for the publisher to fail next — with any error — and no value before.
    ///
    /// The `async` form of `toFail(within:)` (see `toEmit(_:timeout:)` for how wall-clock steps wait): a value or a
    /// finish instead fails it at once.
    ///
    /// ```swift
    /// await expect(client.fetch(badURL)).toFail(timeout: .seconds(1))
    /// ```
    ///
    /// - Parameter timeout: How long, from when the step starts, the failure may take to arrive.
    @discardableResult
    public func toFail(
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await run(fail(name: "toFail", matcher: .any, timing: .timeout(timeout), at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        )), timeout: timeout)
    }

    /// Waits, in wall-clock time, for the publisher to fail next; reads as the step after another (see
    /// `toFail(timeout:)`).
    @discardableResult
    public func thenFail(
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await run(fail(name: "thenFail", matcher: .any, timing: .timeout(timeout), at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        )), timeout: timeout)
    }

    /// Waits, in wall-clock time, for the publisher to fail next with an error equal to `error` (an `E`, whatever
    /// `Failure` is — so it works for `expect(_ sequence:)`, whose failure is `any Error`).
    ///
    /// ```swift
    /// await expect(repository.load()).toFail(with: APIError.offline, timeout: .seconds(2))
    /// ```
    @discardableResult
    public func toFail<E: Error & Equatable>(
        with error: E,
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await run(fail(name: "toFail", matcher: .equal(to: error), timing: .timeout(timeout), at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        )), timeout: timeout)
    }

    /// Waits, in wall-clock time, for the publisher to fail next with an error equal to `error`; reads as the step
    /// after another (see `toFail(with:timeout:)`).
    @discardableResult
    public func thenFail<E: Error & Equatable>(
        with error: E,
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await run(fail(name: "thenFail", matcher: .equal(to: error), timing: .timeout(timeout), at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        )), timeout: timeout)
    }

    /// Waits, in wall-clock time, for the publisher to fail next with an error for which `predicate` returns true.
    ///
    /// ```swift
    /// await expect(upload).toFail(where: { ($0 as? URLError)?.code == .timedOut }, timeout: .seconds(5))
    /// ```
    @discardableResult
    public func toFail(
        where predicate: @escaping (Failure) -> Bool,
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await run(fail(name: "toFail", matcher: .matching(predicate), timing: .timeout(timeout), at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        )), timeout: timeout)
    }

    /// Waits, in wall-clock time, for the publisher to fail next with an error for which `predicate` returns true;
    /// reads as the step after another (see `toFail(where:timeout:)`).
    @discardableResult
    public func thenFail(
        where predicate: @escaping (Failure) -> Bool,
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await run(fail(name: "thenFail", matcher: .matching(predicate), timing: .timeout(timeout), at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        )), timeout: timeout)
    }
}
