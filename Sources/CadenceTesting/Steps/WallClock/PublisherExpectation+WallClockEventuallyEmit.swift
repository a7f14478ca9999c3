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
        await eventuallyEmit(value, name: "toEventuallyEmit", timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
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
        await eventuallyEmit(value, name: "thenEventuallyEmit", timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
    }

    private func eventuallyEmit(
        _ value: Output,
        name: String,
        timeout: Duration,
        at location: SourceCodeLocation
    ) async -> Self {
        let call = { "\(name)(\(ValueText.describe(value))\(StepText.timeout(timeout)))" }
        if let problem = StepText.problem(withTimeout: timeout) {
            return rejecting(call: call, location: location, reason: problem)
        }
        await perform(eventuallyEmitStep(value, call: call, window: nil, location: location), timeout: timeout)
        return self
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
        await eventuallyEmit(where: predicate, name: "toEventuallyEmit", timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
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
        await eventuallyEmit(where: predicate, name: "thenEventuallyEmit", timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
    }

    private func eventuallyEmit(
        where predicate: @escaping (Output) -> Bool,
        name: String,
        timeout: Duration,
        at location: SourceCodeLocation
    ) async -> Self {
        let call = { "\(name)(where: { … }\(StepText.timeout(timeout)))" }
        if let problem = StepText.problem(withTimeout: timeout) {
            return rejecting(call: call, location: location, reason: problem)
        }
        await perform(eventuallyEmitStep(where: predicate, call: call, window: nil, location: location),
                      timeout: timeout)
        return self
    }
}
