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
        await emit(count: count, name: "toEmit", timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
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
        await emit(count: count, name: "thenEmit", timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
    }

    private func emit(count: Int, name: String, timeout: Duration, at location: SourceCodeLocation) async -> Self {
        let call = { "\(name)(count: \(count)\(StepText.timeout(timeout)))" }
        let problem = count < 1
            ? "its count is \(count); the step must expect at least 1 value — to check that nothing arrives, use "
                + "toEmitNothing(timeout:)"
            : StepText.problem(withTimeout: timeout)
        if let problem { return rejecting(call: call, location: location, reason: problem) }
        await perform(emitCountStep(count, call: call, window: nil, location: location), timeout: timeout)
        return self
    }
}
