extension PublisherExpectation {
    /// Waits out `timeout` of wall-clock time, expecting neither a value nor a completion in it.
    ///
    /// The `async` form of `toEmitNothing(for:)`: here the timeout is the window — like an inverted
    /// `XCTestExpectation`, the step passes when the timeout runs out with nothing received, and fails at once on an
    /// event inside it.
    ///
    /// ```swift
    /// await expect(search.results).toEmitNothing(timeout: .milliseconds(250))
    ///     .thenEmit(["swift"], timeout: .seconds(1))
    /// ```
    ///
    /// ```text
    /// toEmitNothing(timeout: .milliseconds(250)) failed: expected nothing for 250 ms, received "swift" at +120.4 ms.
    /// ```
    ///
    /// - Parameter timeout: How long nothing may happen, from when the step starts; `.zero` checks only what has
    ///   already arrived. It must not be negative.
    @discardableResult
    public func toEmitNothing(
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await emitNothing(name: "toEmitNothing", timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
    }

    /// Waits out `timeout` of wall-clock time, expecting nothing in it; reads as the step after another (see
    /// `toEmitNothing(timeout:)`).
    @discardableResult
    public func thenEmitNothing(
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await emitNothing(name: "thenEmitNothing", timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
    }

    private func emitNothing(name: String, timeout: Duration, at location: SourceCodeLocation) async -> Self {
        let call = { "\(name)(\(StepText.timeout(timeout, first: true)))" }
        if let problem = StepText.problem(withTimeout: timeout) {
            return rejecting(call: call, location: location, reason: problem)
        }
        await perform(emitNothingStep(call: call, window: timeout, synchronousOnly: false, location: location),
                      timeout: timeout)
        return self
    }
}
