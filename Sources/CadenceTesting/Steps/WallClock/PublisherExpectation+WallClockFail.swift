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
        await fail(name: "toFail", matcher: .any, timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
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
        await fail(name: "thenFail", matcher: .any, timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
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
        await fail(name: "toFail", matcher: .equal(to: error), timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
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
        await fail(name: "thenFail", matcher: .equal(to: error), timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
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
        await fail(name: "toFail", matcher: .matching(predicate), timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
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
        await fail(name: "thenFail", matcher: .matching(predicate), timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
    }

    private func fail(
        name: String,
        matcher: FailureMatcher<Failure>,
        timeout: Duration,
        at location: SourceCodeLocation
    ) async -> Self {
        let call = {
            let arguments = [matcher.argument, StepText.timeout(timeout, first: true)]
            return "\(name)(\(arguments.compactMap { $0 }.joined(separator: ", ")))"
        }
        if let problem = StepText.problem(withTimeout: timeout) {
            return rejecting(call: call, location: location, reason: problem)
        }
        await perform(failStep(matcher, call: call, window: nil, location: location), timeout: timeout)
        return self
    }
}
