#if canImport(Testing)
import Testing

/// A Swift Testing trait that runs each test case on a virtual clock of its own, and at the end reports what the test
/// left behind on it.
///
/// Add `.virtualTime` to a `@Test`, or to a `@Suite` to give it to every test inside (nested suites too). Each test
/// case — each argument of a parameterised test — gets a fresh `VirtualClock` at tick 0, bound as
/// `VirtualClock.current`, so `DispatchQueue.test`, every `TestScheduler` and `expect` share it; tests running in
/// parallel never see each other's clocks.
///
/// ```swift
/// @Suite(.virtualTime)
/// struct SearchModelTests {
///     @Test func debouncesQueries() {
///         let model = SearchModel(scheduler: DispatchQueue.test)
///         let results = expect(model.$results.dropFirst())
///         model.query = "cad"
///         results.toEmit(["Cadence"], within: .milliseconds(300))
///     }
/// }
/// ```
///
/// Misuse of the clock (a negative advance, a repeat interval of zero) is recorded as an issue at the `@Test`. When the
/// test body returns, the trait:
///
/// 1. runs the work due at that tick (time does not move), then records an issue at the `@Test` for the work still on
///    the clock — each task asleep on it, by what it sleeps in, since when and until when; each scheduled action and
///    repeating timer by when it is due — unless ``leftovers`` is ``Leftovers/allowed``:
///    ```text
///    The test body returned at tick 1000 and left work on the virtual clock:
///      a task asleep in VirtualClock.sleep(for:) at MyAppTests/SessionTests.swift:12, since tick 0, until tick 10000
///      1 repeating action, next due at tick 1100
///    Finish, cancel or await that work before the test body returns, or let this test leave it with
///    .virtualTime(leftovers: .allowed).
///    ```
/// 2. runs the clock's leftover work until the clock is idle — for at most ``horizon`` of virtual time past the
///    body's return and a hundred thousand actions, so an endless repeating timer cannot hang the test;
/// 3. reports events that reached an expectation chain after it had ended (late over-fulfilment), each at its
///    `expect`'s location — here `expect(subject).toEmit(1)` on a `CurrentValueSubject(1)`, then `subject.send(2)`:
///    ```text
///    expect(CurrentValueSubject<Int, Never>) received 1 event after its chain had ended: 2 at tick 0.
///
///        expect(CurrentValueSubject<Int, Never>)
///      ✓   .toEmit(1)
///
///         tick  received      expected
///            0  subscription
///            0  1             1          toEmit(1)
///      →     0  2             (no step)
///    ```
/// 4. with leftovers allowed, notes work still pending at the `@Test` as a warning-level issue that does not fail the
///    test (an app's repeating timer is often harmless, and is dropped either way; before Swift 6.3, which has no
///    public issue severity, the note goes to standard error):
///    ```text
///    The virtual clock was still busy .seconds(60) after the test body returned (at tick 0): 1 scheduled action, due
///    at tick 61000, never ran. An endless repeating timer, or work that keeps rescheduling itself? Cancel it before
///    the test body returns, or give .virtualTime(horizon:) a longer horizon.
///    ```
/// 5. ends the clock: work scheduled on it afterwards (by a leaked task, say) is reported and never runs.
///
/// Await (or cancel) the tasks a test body starts before it returns. The drain wakes a task sleeping on the clock,
/// but the task runs on, on another thread: if it schedules again after the drain has found the clock idle, that work
/// is reported as scheduled after the drain (a failure, or a note with leftovers allowed), and a sleep after step 5 as
/// sleeping on an ended clock — which of the two, if either, depends on timing, as the task's own does.
///
/// If the body throws, the trait only ends the clock and lets the error through. A test that never touches time costs a
/// clock, a few task-local bindings and one look at an empty timeline, and reports nothing.
///
/// A trait on a test inside a suite that has one too wins for that test: the test runs on the innermost clock, with
/// that trait's ``leftovers`` and ``horizon``. `@Suite(.virtualTime(leftovers: .allowed))` so lets every test of the
/// suite leave work behind.
///
/// A test that leaves work on the clock on purpose says so, with the reason beside it:
///
/// ```swift
/// // The model polls for the app's whole life: its timer is still scheduled when the test ends.
/// @Test(.virtualTime(leftovers: .allowed))
/// func pollsEveryFiveSeconds() { … }
/// ```
public struct VirtualTimeTrait: TestTrait, SuiteTrait, TestScoping {
    /// How much virtual time past the test body's return the clock may run leftover work;
    /// ``Cadence/VirtualClock/defaultHorizon`` (one hour) unless set. A negative horizon is reported and treated as zero.
    public var horizon: Duration

    /// Whether work the test body leaves on the clock fails the test (``Leftovers/fail``, the default) or is run and,
    /// when still pending after the horizon, only noted (``Leftovers/allowed``).
    public var leftovers: Leftovers

    /// What the test's sleeps on `ContinuousClock` and `SuspendingClock` (and `Task.sleep`) do: stay on the wall
    /// clock (``SystemClocks/real``, the default) or run on the test's virtual clock (``SystemClocks/virtual``).
    public var systemClocks: SystemClocks

    /// How many times each test case runs, each run on a fresh clock and in another order of its same-instant work
    /// (see ``Testing/Trait/virtualTime(explore:horizon:leftovers:systemClocks:)``); nil, the default, for one run in
    /// first-in first-out order.
    public var explore: Int?

    /// The schedule each test case replays, printed by a failing exploration (see
    /// ``Testing/Trait/virtualTime(schedule:horizon:leftovers:systemClocks:)``); nil, the default, for first-in first-out
    /// order. Wins over ``explore`` when both are set.
    public var schedule: UInt64?

    /// A trait with the given horizon, treatment of leftover work and system clocks.
    public init(
        horizon: Duration = VirtualClock.defaultHorizon, leftovers: Leftovers = .fail,
        systemClocks: SystemClocks = .real
    ) {
        self.horizon = horizon
        self.leftovers = leftovers
        self.systemClocks = systemClocks
    }

    /// Always `true`: on a suite, the trait applies to every test in it, nested suites included.
    public var isRecursive: Bool { true }

    /// The trait scopes each test case on its own — never a suite, and never a parameterised test's cases together.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        test.isSuite || testCase == nil ? nil : self
    }

    /// Runs one test case on a fresh virtual clock, then drains it and reports what the test left behind.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let location = SourceCodeLocation(test.sourceLocation)
        var last: VirtualTimeSession?
        let session = { (chooser: ScheduleChooser?, endedRun: String?) in
            let session = VirtualTimeSession(
                api: ".virtualTime", bodyName: "test body", horizon: horizon, leftovers: leftovers,
                systemClocks: systemClocks,
                failures: FailureReporter.bound ?? .swiftTesting,
                notes: FailureReporter.bound ?? .swiftTestingWarning,
                location: location, chooser: chooser, endedRun: endedRun
            )
            last = session
            return session
        }
        do {
            let request =
                schedule.map(ScheduleExploration.Request.replay) ?? explore.map(ScheduleExploration.Request.explore)
            if let request {
                let exploration = ScheduleExploration(
                    request: request, api: ".virtualTime", bodyName: "test body",
                    failures: FailureReporter.bound ?? .swiftTesting,
                    notes: FailureReporter.bound ?? .swiftTestingWarning, location: location
                )
                try await exploration.run(isolation: nil, session) { _ in try await function() }
            } else {
                try await session(nil, nil).run(isolation: nil) { _ in try await function() }
            }
        } catch is CancellationError where last?.clock.hasEndedStalledSleeps == true {
            // The CancellationError that ended a stalled sleep, thrown on out of the test: the session reported the
            // stall, clearly, and one failure is enough.
        }
    }
}

extension Trait where Self == VirtualTimeTrait {
    /// Runs each test case on a virtual clock of its own and reports what the test left behind (see
    /// ``VirtualTimeTrait``).
    ///
    /// ```swift
    /// @Test(.virtualTime) func delaysByOneSecond() {
    ///     expect(Just(1).delay(for: .seconds(1), scheduler: DispatchQueue.test))
    ///         .toEmit(1, within: .seconds(1))
    ///         .thenFinish()
    /// }
    /// ```
    public static var virtualTime: Self { VirtualTimeTrait() }

    /// Runs each test case on a virtual clock of its own, failing the test for work it leaves on the clock unless
    /// `leftovers` is ``Leftovers/allowed``, and running leftover work for at most `horizon` after the body returns.
    ///
    /// ```swift
    /// // The model polls for the app's whole life: its timer is still scheduled when the test ends.
    /// @Test(.virtualTime(horizon: .seconds(60), leftovers: .allowed))
    /// func pollsEveryFiveSeconds() {
    ///     let model = PollingModel(every: .seconds(5), scheduler: DispatchQueue.test)
    ///     expect(model.$polls).toEmit([0, 1], within: .seconds(5)).thenIgnoreRest()
    /// }
    /// ```
    public static func virtualTime(
        horizon: Duration = VirtualClock.defaultHorizon, leftovers: Leftovers = .fail
    ) -> Self {
        VirtualTimeTrait(horizon: horizon, leftovers: leftovers)
    }

    /// Runs each test case on a virtual clock of its own, with the test's sleeps on `ContinuousClock` and
    /// `SuspendingClock` — `Task.sleep(for:)` included — on that clock too when `systemClocks` is
    /// ``SystemClocks/virtual``, so code that takes no clock runs on virtual time (see ``SystemClocks``).
    public static func virtualTime(
        horizon: Duration = VirtualClock.defaultHorizon,
        leftovers: Leftovers = .fail,
        systemClocks: SystemClocks
    ) -> Self {
        VirtualTimeTrait(horizon: horizon, leftovers: leftovers, systemClocks: systemClocks)
    }
}

extension Trait where Self == VirtualTimeTrait {
    /// Runs each test case `runs` times, each on a fresh virtual clock: the first run in first-in first-out order,
    /// each further run in another order that the work due at one instant may really take; the first failing run
    /// ends the exploration, and is reported with a seed that replays it (see `withVirtualTime(explore:)` and
    /// Guides/ScheduleExploration.md).
    ///
    /// ```swift
    /// @Test(.virtualTime(explore: 20))
    /// func anAnswerByTheDeadlineIsACharge() {
    ///     let payments = PaymentClient(
    ///         provider: FakePaymentProvider(latency: .seconds(10)),
    ///         scheduler: DispatchQueue.test.eraseToAnyScheduler()
    ///     )
    ///     payments.charge(cents: 4_200)
    ///     VirtualClock.current?.advance(by: .seconds(10))
    ///     #expect(payments.outcome == .charged(receipt: "rcpt_1"))
    /// }
    /// ```
    ///
    /// Swift Testing makes a fresh instance of the test's suite for each run, so a suite's stored properties start
    /// afresh too.
    public static func virtualTime(
        explore runs: Int,
        horizon: Duration = VirtualClock.defaultHorizon,
        leftovers: Leftovers = .fail,
        systemClocks: SystemClocks = .real
    ) -> Self {
        var trait = VirtualTimeTrait(horizon: horizon, leftovers: leftovers, systemClocks: systemClocks)
        trait.explore = runs
        return trait
    }

    /// Runs each test case once, on a virtual clock of its own, in the schedule `seed` names — printed by a failing
    /// `.virtualTime(explore:)` — so that the failure happens again, run after run.
    public static func virtualTime(
        schedule seed: UInt64,
        horizon: Duration = VirtualClock.defaultHorizon,
        leftovers: Leftovers = .fail,
        systemClocks: SystemClocks = .real
    ) -> Self {
        var trait = VirtualTimeTrait(horizon: horizon, leftovers: leftovers, systemClocks: systemClocks)
        trait.schedule = seed
        return trait
    }
}

extension SourceCodeLocation {
    /// The location of a Swift Testing `SourceLocation`, for reports made on a test's behalf.
    ///
    /// Such a location has no static file path for XCTest; it is only ever reported to Swift Testing or to a bound
    /// reporter.
    init(_ location: SourceLocation) {
        self.init(fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column)
    }
}
#endif
