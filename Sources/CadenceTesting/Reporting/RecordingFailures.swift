/// Runs `body` with a reporter that collects every failure of the expectations it creates, and returns them in the
/// order they were reported, instead of failing the test.
///
/// ```swift
/// let failures = recordingFailures {
///     expect(Just(1)).toEmit(2)
/// }
/// #expect(failures.first?.location.line == 2)
/// ```
///
/// Failures reported after `body` returns (a late event reaching an expectation made inside) are not included; bind
/// a ``FailureLog``'s reporter to keep collecting them.
public func recordingFailures(_ body: () throws -> Void) rethrows -> [ExpectationFailure] {
    let log = FailureLog()
    try FailureReporter.$current.withValue(log.reporter) { try body() }
    return log.failures
}

/// Runs `body` with a reporter that collects every failure of the expectations it creates, and returns them in the
/// order they were reported, instead of failing the test.
///
/// The reporter is bound for the whole of `body`, across its suspensions and in the child tasks it creates.
public func recordingFailures(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Void
) async rethrows -> [ExpectationFailure] {
    let log = FailureLog()
    try await FailureReporter.$current.withValue(log.reporter) { try await body() }
    return log.failures
}
