extension VirtualClock {
    /// How far past the end of a test's body `.virtualTime` and `withVirtualTime` run the clock's leftover work by
    /// default: one hour of virtual time.
    public static let defaultHorizon: Duration = .seconds(3600)
}

/// Runs `body` on a fresh virtual clock bound as `VirtualClock.current`, then runs the clock's leftover work and
/// reports what the body left behind — the `.virtualTime` trait's scope, for XCTest and for code outside any trait.
///
/// Inside `body`, `DispatchQueue.test`, every `TestScheduler` and `expect` share `clock`, and misuse of the clock (a
/// negative advance, scheduling after the end) is reported as a failure at this call. When `body` returns:
///
/// 1. the clock runs its leftover work until it is idle — for at most `horizon` of virtual time and a hundred
///    thousand actions, so an endless repeating timer cannot hang the test;
/// 2. events that reached an expectation chain after it had ended are reported, at that `expect`'s location;
/// 3. work still pending is reported: as a failure in `strict` mode, else as a note (a Swift Testing warning, or a
///    line on standard error under XCTest) that fails nothing;
/// 4. the clock ends: work scheduled on it later is reported and never runs.
///
/// If `body` throws, the clock just ends and the error goes through. Reports go where `expect`'s do, chosen here: a
/// bound `FailureReporter.current` reporter (which takes the notes too), else the running Swift Testing or XCTest
/// test. Calls nest: an inner call gets a clock of its own and reports when it returns.
///
/// ```swift
/// func testSearchDebounces() {
///     withVirtualTime { clock in
///         let model = SearchModel(scheduler: DispatchQueue.test)
///         let results = expect(model.$results.dropFirst())
///         model.query = "cad"
///         results.toEmit(["Cadence"], within: .milliseconds(300))
///     }
/// }
/// ```
///
/// A repeating timer the body leaves running is noted once the horizon has passed:
///
/// ```text
/// The virtual clock was still busy .seconds(3600) after the body returned (at tick 0): 1 scheduled action, due at
/// tick 3601000, never ran. An endless repeating timer, or work that keeps rescheduling itself? Cancel it before the
/// body returns, or give withVirtualTime(horizon:) a longer horizon; withVirtualTime(strict: true) makes this a
/// failure.
/// ```
///
/// - Parameters:
///   - horizon: How much virtual time past the body's return the clock may run leftover work;
///     ``Cadence/VirtualClock/defaultHorizon`` (one hour) by default. A negative horizon is reported and treated as zero.
///   - strict: Whether work still pending after the horizon is a failure (`true`) or a note (`false`, the default).
///   - body: The code to run, given the clock.
/// - Returns: What `body` returns.
@discardableResult
public func withVirtualTime<R>(
    horizon: Duration = VirtualClock.defaultHorizon,
    strict: Bool = false,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ body: (_ clock: VirtualClock) throws -> R
) rethrows -> R {
    try VirtualTimeSession(
        api: "withVirtualTime", bodyName: "body", horizon: horizon, isStrict: strict,
        failures: .resolved, notes: .resolvedForNotes,
        location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    ).run(body)
}

/// Runs the asynchronous `body` on a fresh virtual clock bound as `VirtualClock.current`, then runs the clock's
/// leftover work and reports what the body left behind (see the synchronous `withVirtualTime(horizon:strict:_:)`).
///
/// ```swift
/// func testTokenExpiresAfterAnHour() async throws {
///     try await withVirtualTime { clock in
///         let session = Session(clock: clock)
///         clock.advance(by: .seconds(3600))
///         let token = try await session.token()
///         XCTAssertEqual(token, "fresh")
///     }
/// }
/// ```
@discardableResult
public func withVirtualTime<R>(
    horizon: Duration = VirtualClock.defaultHorizon,
    strict: Bool = false,
    systemClocks: SystemClocks = .real,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ body: (_ clock: VirtualClock) async throws -> R
) async rethrows -> R {
    try await VirtualTimeSession(
        api: "withVirtualTime", bodyName: "body", horizon: horizon, isStrict: strict, systemClocks: systemClocks,
        failures: .resolved, notes: .resolvedForNotes,
        location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    ).run(isolation: isolation, body)
}
