extension PublisherExpectation {
    /// Waits, in wall-clock time, for the publisher to finish next, with no value before.
    ///
    /// The `async` form of `toFinish(within:)`: it suspends without blocking a thread until the publisher finishes,
    /// and fails as soon as a value or a failure arrives instead — not when the timeout runs out.
    ///
    /// ```swift
    /// await expect(upload.progress).toEmit([0.5, 1.0], timeout: .seconds(1)).thenFinish(timeout: .seconds(1))
    /// ```
    ///
    /// ```text
    /// toFinish(timeout: .seconds(1)) failed: expected finished, received 7 at +2.4 ms.
    /// ```
    ///
    /// - Parameter timeout: How long, from when the step starts, finishing may take.
    @discardableResult
    public func toFinish(
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await finish(name: "toFinish", timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
    }

    /// Waits, in wall-clock time, for the publisher to finish next; reads as the step after another (see
    /// `toFinish(timeout:)`).
    @discardableResult
    public func thenFinish(
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await finish(name: "thenFinish", timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
    }

    private func finish(name: String, timeout: Duration, at location: SourceCodeLocation) async -> Self {
        let call = { "\(name)(\(StepText.timeout(timeout, first: true)))" }
        if let problem = StepText.problem(withTimeout: timeout) {
            return rejecting(call: call, location: location, reason: problem)
        }
        await perform(finishStep(call: call, window: nil, location: location), timeout: timeout)
        return self
    }
}
