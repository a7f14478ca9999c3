extension PublisherExpectation where Failure: Equatable {
    /// Expects the publisher to fail next with an error equal to `error`, one of the publisher's own `Failure`, so a
    /// case is written as it is in the publisher's code.
    ///
    /// ```swift
    /// expect(Fail<Int, APIError>(error: .offline)).toFail(with: .offline)
    /// ```
    ///
    /// The generic `toFail(with:within:)` takes an error of any `Equatable` type, for publishers whose `Failure` is
    /// `any Error`; when the publisher's `Failure` is `Equatable`, this one is chosen and the type can be left out.
    @discardableResult
    public func toFail(
        with error: Failure,
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

    /// Expects the publisher to fail next with an error equal to `error`, one of its own `Failure`; reads as the step
    /// after another (see `toFail(with:within:)`).
    @discardableResult
    public func thenFail(
        with error: Failure,
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

    /// Waits, in wall-clock time, for the publisher to fail next with an error equal to `error`, one of its own
    /// `Failure` (see `toFail(with:timeout:)`).
    @discardableResult
    public func toFail(
        with error: Failure,
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

    /// Waits, in wall-clock time, for the publisher to fail next with an error equal to `error`, one of its own
    /// `Failure`; reads as the step after another (see `toFail(with:timeout:)`).
    @discardableResult
    public func thenFail(
        with error: Failure,
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
}
