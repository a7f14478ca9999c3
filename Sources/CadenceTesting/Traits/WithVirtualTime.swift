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

/// Runs `body` `runs` times, each on a fresh virtual clock: the first run in first-in first-out order, as
/// `withVirtualTime(horizon:leftovers:_:)` runs it, and each further run in another order that the work due at one
/// instant may really take — so a test that passes only in the order it happens to be written fails here, with a
/// seed that replays the failing order.
///
/// What may change from run to run is only the order *between lanes* of work due or ready at the same tick: the
/// actions of different `TestScheduler` instances (each `DispatchQueue.test` made is one serial queue), the wake-ups
/// of different tasks whose sleeps end at that tick, and the ready jobs of different tasks. Each lane keeps its own
/// order in every run, and work due at different ticks never changes order (see Guides/ScheduleExploration.md).
///
/// When the order space is small enough — no more schedules than `runs` — every schedule runs once and the
/// exploration stops when they are done; otherwise the runs alternate between uniform random choices and PCT
/// (probabilistic concurrency testing), from seeds fixed by the call's place in the source, so every run of the
/// suite explores the same schedules.
///
/// The first run that fails — by a thrown error, a failed expectation, `#expect` or `XCTAssert` — ends the
/// exploration. Its failures are reported as usual; unless it is the first run, one more failure at this call says
/// which run failed, the seed of a schedule that fails — the run's own, or a smaller one found from it by putting its
/// choices back one at a time — and how that schedule differs from first-in first-out order:
///
/// ```text
/// withVirtualTime(explore: 20): run 3 failed; runs 1 and 2 passed, run 1 in first-in first-out order.
/// It fails in schedule 0x1E20000000000001, which differs from first-in first-out order in 1 choice:
///   at tick 10000, the action of the 2nd DispatchQueue.test ran before the action of the 1st DispatchQueue.test
/// Replay that schedule, run after run, with withVirtualTime(schedule: 0x1E20000000000001).
/// ```
///
/// Make everything the body uses inside the body, so that each run starts afresh. `runs` below 1, an exploration
/// inside another, and a body that keeps a clock or scheduler of an earlier run are each reported, and never trap.
///
/// - Parameters:
///   - runs: How many runs at most, the first in first-in first-out order.
///   - horizon: How much virtual time past the body's return each run's clock may run leftover work.
///   - leftovers: Whether work the body leaves on the clock fails the run.
///   - body: The code to run, given each run's clock.
/// - Returns: What `body` returns in the last run.
@discardableResult
public func withVirtualTime<R>(
    explore runs: Int,
    horizon: Duration = VirtualClock.defaultHorizon,
    leftovers: Leftovers = .fail,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ body: (_ clock: VirtualClock) throws -> R
) rethrows -> R {
    let location = SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    return try ScheduleExploration.withVirtualTime(.explore(runs), at: location).run(
        ScheduleExploration.sessions(horizon: horizon, leftovers: leftovers, at: location), body)
}

/// Runs `body` once on a fresh virtual clock, in the schedule `seed` names — printed by a failing
/// `withVirtualTime(explore:)` — so that a failure found by exploring happens again, run after run, to debug with
/// ordinary tools.
///
/// A seed printed for other code (the test, the code under test or Cadence changed since) is found out after the
/// run and reported, as is a seed this version of Cadence does not print.
@discardableResult
public func withVirtualTime<R>(
    schedule seed: UInt64,
    horizon: Duration = VirtualClock.defaultHorizon,
    leftovers: Leftovers = .fail,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ body: (_ clock: VirtualClock) throws -> R
) rethrows -> R {
    let location = SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    return try ScheduleExploration.withVirtualTime(.replay(seed), at: location).run(
        ScheduleExploration.sessions(horizon: horizon, leftovers: leftovers, at: location), body)
}

/// Runs the asynchronous `body` `runs` times, each on a fresh virtual clock — the first in first-in first-out order,
/// the others in other orders that same-instant work may really take — and reports the first failing run with a
/// seed that replays it (see the synchronous `withVirtualTime(explore:horizon:leftovers:_:)`).
///
/// ```swift
/// @Test func theResponseWinsAtTheDeadline() async {
///     await withVirtualTime(explore: 50) { clock in
///         let checkout = Checkout(clock: clock, timeout: .milliseconds(100))
///         await checkout.submit()   // the fake server answers after 100 ms too
///         #expect(checkout.state == .confirmed)
///     }
/// }
/// ```
@discardableResult
public func withVirtualTime<R>(
    explore runs: Int,
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
    let location = SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    return try await ScheduleExploration.withVirtualTime(.explore(runs), at: location).run(
        isolation: isolation,
        ScheduleExploration.sessions(
            horizon: horizon, leftovers: leftovers, systemClocks: systemClocks, at: location),
        body)
}

/// Runs the asynchronous `body` once on a fresh virtual clock, in the schedule `seed` names — printed by a failing
/// `withVirtualTime(explore:)` (see the synchronous `withVirtualTime(schedule:horizon:leftovers:_:)`).
@discardableResult
public func withVirtualTime<R>(
    schedule seed: UInt64,
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
    let location = SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    return try await ScheduleExploration.withVirtualTime(.replay(seed), at: location).run(
        isolation: isolation,
        ScheduleExploration.sessions(
            horizon: horizon, leftovers: leftovers, systemClocks: systemClocks, at: location),
        body)
}

extension ScheduleExploration {
    /// The exploration, or replay, of a `withVirtualTime(explore:)` or `withVirtualTime(schedule:)` call at
    /// `location`.
    static func withVirtualTime(_ request: Request, at location: SourceCodeLocation) -> ScheduleExploration {
        ScheduleExploration(
            request: request, api: "withVirtualTime", bodyName: "body", failures: .resolved,
            notes: .resolvedForNotes, location: location)
    }

    /// The session of each run of such a call: its reporters resolved when the run starts, inside the run's watch.
    static func sessions(
        horizon: Duration, leftovers: Leftovers, systemClocks: SystemClocks = .real, at location: SourceCodeLocation
    ) -> (_ chooser: ScheduleChooser?, _ endedRun: String?) -> VirtualTimeSession {
        { chooser, endedRun in
            VirtualTimeSession(
                api: "withVirtualTime", bodyName: "body", horizon: horizon, leftovers: leftovers,
                systemClocks: systemClocks, failures: .resolved, notes: .resolvedForNotes, location: location,
                chooser: chooser, endedRun: endedRun
            )
        }
    }
}
