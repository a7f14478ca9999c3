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
        run(
            fail(
                name: "toFail", matcher: .any, timing: .within(budget),
                at: SourceCodeLocation(
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
        run(
            fail(
                name: "thenFail", matcher: .any, timing: .within(budget),
                at: SourceCodeLocation(
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
        run(
            fail(
                name: "toFail", matcher: .equal(to: error), timing: .within(budget),
                at: SourceCodeLocation(
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
        run(
            fail(
                name: "thenFail", matcher: .equal(to: error), timing: .within(budget),
                at: SourceCodeLocation(
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
        run(
            fail(
                name: "toFail", matcher: .matching(predicate), timing: .within(budget),
                at: SourceCodeLocation(
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
        run(
            fail(
                name: "thenFail", matcher: .matching(predicate), timing: .within(budget),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )))
    }

    /// The step `name` that expects the publisher to fail next with an error `matcher` accepts, timed by `timing`.
    func fail(
        name: String,
        matcher: FailureMatcher<Failure>,
        timing: StepTiming,
        at location: SourceCodeLocation
    ) -> WrittenStep<Output, Failure> {
        let step = ChainStep(
            FailStep<Output, Failure>(matcher: matcher), name: name, timing: timing, window: timing.budget,
            location: location
        )
        if let problem = timing.problem { return .rejected(step, problem) }
        return .ready(step)
    }
}

/// The step of `toFail`: the publisher fails next, with an error its matcher accepts.
struct FailStep<Output, Failure: Error>: ExpectationStep {
    let matcher: FailureMatcher<Failure>

    var arguments: StepArguments { .failure(matcher.expectation) }

    func evaluate(_ events: ArraySlice<TimedEvent<Output, Failure>>, isFinal: Bool) -> StepOutcome {
        let sought = Sought.failure(matcher.expectation)
        guard let event = events.first else {
            return isFinal ? .failed(StepDivergence(.missing(sought), matched: 0, atEvent: false)) : .pending
        }
        if case let .completion(.failure(error)) = event.event {
            if matcher.matches(error) { return .satisfied(consumed: 1) }
            return .failed(
                StepDivergence(
                    .received(.failure(error), expected: sought), matched: 0, atEvent: true,
                    difference: matcher.expectedError.map { ($0, error) }
                ))
        }
        return .failed(StepDivergence(.received(Received(event.event), expected: sought), matched: 0, atEvent: true))
    }

    func expectation(at index: Int, of count: Int) -> StepExpectation { .failure(matcher.expectation) }

    func missing(after consumed: Int) -> StepExpectation { .failure(matcher.expectation) }
}

/// Which failures a failing step accepts.
enum FailureMatcher<Failure: Error> {
    case any
    case equal(error: any Error, matches: (Failure) -> Bool)
    case matching((Failure) -> Bool)

    static func equal<E: Error & Equatable>(to error: E) -> Self {
        .equal(error: error, matches: { ($0 as? E) == error })
    }

    func matches(_ error: Failure) -> Bool {
        switch self {
        case .any: true
        case let .equal(_, matches): matches(error)
        case let .matching(predicate): predicate(error)
        }
    }

    /// What the step expects, as data for the messages.
    var expectation: FailureExpectation {
        switch self {
        case .any: .any
        case let .equal(error, _): .equal(error)
        case .matching: .matching
        }
    }

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
        await run(
            fail(
                name: "toFail", matcher: .any, timing: .timeout(timeout),
                at: SourceCodeLocation(
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
        await run(
            fail(
                name: "thenFail", matcher: .any, timing: .timeout(timeout),
                at: SourceCodeLocation(
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
        await run(
            fail(
                name: "toFail", matcher: .equal(to: error), timing: .timeout(timeout),
                at: SourceCodeLocation(
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
        await run(
            fail(
                name: "thenFail", matcher: .equal(to: error), timing: .timeout(timeout),
                at: SourceCodeLocation(
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
        await run(
            fail(
                name: "toFail", matcher: .matching(predicate), timing: .timeout(timeout),
                at: SourceCodeLocation(
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
        await run(
            fail(
                name: "thenFail", matcher: .matching(predicate), timing: .timeout(timeout),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )), timeout: timeout)
    }
}
