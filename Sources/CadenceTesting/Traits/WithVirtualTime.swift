extension VirtualClock {
    /// How far past the end of a test's body `.virtualTime` and `withVirtualTime` run the clock's leftover work by
    /// default: one hour of virtual time.
    public static let defaultHorizon: Duration = .seconds(3600)
}

/// Runs `body` on a fresh virtual clock bound as `VirtualClock.current`, then reports what the body left behind on the
/// clock and runs it — the `.virtualTime` trait's scope, for XCTest and for code outside any trait.
///
/// Inside `body`, `DispatchQueue.test`, every `TestScheduler` and `expect` share `clock`, and misuse of the clock (a
/// negative advance, scheduling after the end) is reported as a failure at this call. When `body` returns:
///
/// 1. the work due at that tick runs (time does not move), and the work still on the clock — each task asleep on it,
///    each scheduled action and repeating timer — is reported as a failure, unless `leftovers` is
///    ``Leftovers/allowed``;
/// 2. the clock runs its leftover work until it is idle — for at most `horizon` of virtual time and a hundred
///    thousand actions, so an endless repeating timer cannot hang the test;
/// 3. events that reached an expectation chain after it had ended are reported, at that `expect`'s location;
/// 4. with leftovers allowed, work still pending is noted (a Swift Testing warning, or a line on standard error under
///    XCTest) and fails nothing;
/// 5. the clock ends: work scheduled on it later is reported and never runs.
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
/// A task the body leaves asleep fails the test, named by where it sleeps and until when:
///
/// ```text
/// The body returned at tick 1000 and left work on the virtual clock:
///   a task asleep in VirtualClock.sleep(for:) at MyAppTests/SessionTests.swift:12, since tick 0, until tick 10000
/// Finish, cancel or await that work before the body returns, or let this test leave it with
/// withVirtualTime(leftovers: .allowed).
/// ```
///
/// With `leftovers: .allowed`, a repeating timer the body leaves running is noted once the horizon has passed:
///
/// ```text
/// The virtual clock was still busy .seconds(3600) after the body returned (at tick 0): 1 scheduled action, due at
/// tick 3601000, never ran. An endless repeating timer, or work that keeps rescheduling itself? Cancel it before the
/// body returns, or give withVirtualTime(horizon:) a longer horizon.
/// ```
///
/// - Parameters:
///   - horizon: How much virtual time past the body's return the clock may run leftover work;
///     ``Cadence/VirtualClock/defaultHorizon`` (one hour) by default. A negative horizon is reported and treated as zero.
///   - leftovers: Whether work the body leaves on the clock fails the test (``Leftovers/fail``, the default) or is run
///     and, when still pending after the horizon, noted (``Leftovers/allowed``).
///   - body: The code to run, given the clock.
/// - Returns: What `body` returns.
@discardableResult
public func withVirtualTime<R>(
    horizon: Duration = VirtualClock.defaultHorizon,
    leftovers: Leftovers = .fail,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ body: (_ clock: VirtualClock) throws -> R
) rethrows -> R {
    try VirtualTimeSession(
        api: "withVirtualTime", bodyName: "body", horizon: horizon, leftovers: leftovers,
        failures: .resolved, notes: .resolvedForNotes,
        location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    ).run(body)
}

/// Runs the asynchronous `body` on a fresh virtual clock bound as `VirtualClock.current`, then runs the clock's
/// leftover work and reports what the body left behind (see the synchronous `withVirtualTime(horizon:leftovers:_:)`).
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
    leftovers: Leftovers = .fail,
    systemClocks: SystemClocks = .real,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ body: (_ clock: VirtualClock) async throws -> R
) async rethrows -> R {
    try await VirtualTimeSession(
        api: "withVirtualTime", bodyName: "body", horizon: horizon, leftovers: leftovers, systemClocks: systemClocks,
        failures: .resolved, notes: .resolvedForNotes,
        location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    ).run(isolation: isolation, body)
}
