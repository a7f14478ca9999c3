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
        await emit(values, name: "toEmit", timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
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
        await emit(values, name: "thenEmit", timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
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
        await emit([value], name: "toEmit", single: true, timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
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
        await emit([value], name: "thenEmit", single: true, timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
    }

    private func emit(
        _ values: [Output],
        name: String,
        single: Bool = false,
        timeout: Duration,
        at location: SourceCodeLocation
    ) async -> Self {
        let call = {
            let argument = single ? ValueText.describe(values[0])
                : "[" + values.map(ValueText.describe).joined(separator: ", ") + "]"
            return "\(name)(\(argument)\(StepText.timeout(timeout)))"
        }
        let problem = values.isEmpty
            ? "an empty list of values expects nothing, so it cannot fail; to check that nothing arrives, use "
                + "toEmitNothing(for:), or toFinish(timeout:) for a publisher that completes without values"
            : StepText.problem(withTimeout: timeout)
        if let problem { return rejecting(call: call, location: location, reason: problem) }
        await perform(emitStep(values, single: single, call: call, window: nil, location: location), timeout: timeout)
        return self
    }
}
