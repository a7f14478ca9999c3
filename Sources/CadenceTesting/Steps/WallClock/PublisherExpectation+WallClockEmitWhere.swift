extension PublisherExpectation {
    /// Waits, in wall-clock time, for a next value for which `predicate` returns true.
    ///
    /// The `async` form of `toEmit(where:within:)` (see `toEmit(_:timeout:)` for how wall-clock steps wait).
    ///
    /// ```swift
    /// await expect(search.results.values).toEmit(where: { !$0.isEmpty }, timeout: .seconds(1))
    /// ```
    ///
    /// - Parameter timeout: How long, from when the step starts, the value may take to arrive.
    @discardableResult
    public func toEmit(
        where predicate: @escaping (Output) -> Bool,
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await emit(where: predicate, name: "toEmit", timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
    }

    /// Waits, in wall-clock time, for a next value for which `predicate` returns true; reads as the step after
    /// another (see `toEmit(where:timeout:)`).
    @discardableResult
    public func thenEmit(
        where predicate: @escaping (Output) -> Bool,
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await emit(where: predicate, name: "thenEmit", timeout: timeout, at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        ))
    }

    private func emit(
        where predicate: @escaping (Output) -> Bool,
        name: String,
        timeout: Duration,
        at location: SourceCodeLocation
    ) async -> Self {
        let call = { "\(name)(where: { … }\(StepText.timeout(timeout)))" }
        if let problem = StepText.problem(withTimeout: timeout) {
            return rejecting(call: call, location: location, reason: problem)
        }
        await perform(emitWhereStep(predicate, call: call, window: nil, location: location), timeout: timeout)
        return self
    }
}
