import CadenceTesting
import Testing

/// `systemClocks: .virtual`: sleeps on `ContinuousClock` and `SuspendingClock`, `Task.sleep`'s included, in code that
/// takes no clock, run on the session's virtual clock.
@Suite struct SystemClockSleepTests {
    /// Whether this runtime can take sleeps on the system's clocks onto a virtual clock (Swift 6.3's scheduling
    /// executors); the tests of it run only where it can.
    static let supported = VirtualClock.canVirtualizeSystemSleeps

    // MARK: The scenario with no clock injected

    /// The twins whose sleeps a session takes onto its clock: all but the one that sleeps inside a repository actor
    /// (see `aSleepInsideAnotherActorStaysOnTheWallClock`).
    static let twins = ScenarioKind.allCases.filter { $0 != .repositoryActor }

    @Test(.enabled(if: supported), arguments: twins)
    func theScenarioSleepingOnTheContinuousClockRunsOnVirtualTime(_ kind: ScenarioKind) async {
        let trace = await withVirtualTime(systemClocks: .virtual) { clock in
            await driveScenario(kind, on: clock, sleepingOn: ContinuousClock())
        }
        #expect(kind.isExpectedOnASystemClock(trace), "\(trace)")
    }

    @MainActor @Test(.enabled(if: supported), .virtualTime(systemClocks: .virtual), arguments: twins)
    func theScenarioSleepingOnTheSuspendingClockRunsOnVirtualTimeUnderTheTrait(_ kind: ScenarioKind) async throws {
        let clock = try #require(VirtualClock.current)
        let trace = await driveScenario(kind, on: clock, sleepingOn: SuspendingClock())
        #expect(kind.isExpectedOnASystemClock(trace), "\(trace)")
    }

    /// The twins' check on a system clock lets two equal sleeps swap, and nothing else.
    /// A test that awaits code sleeping on a system clock — so nothing of the test advances the clock — is told so
    /// after a second of real time, and the sleep ends with `CancellationError`: the test goes on instead of hanging.
    @Test(.enabled(if: supported), .hangGuard)
    func aTestAwaitingASleepOnTheSystemClockIsReportedNotHung() async {
        @Sendable func refresh() async -> String {
            do {
                try await Task.sleep(for: .seconds(2))
                return "refreshed"
            } catch {
                return "\(type(of: error))"
            }
        }
        var result = ""
        let failures = await recordingFailures {
            result = await withVirtualTime(systemClocks: .virtual) { _ in await refresh() }
        }
        #expect(result == "CancellationError")
        // A sleep measured late by a thread held up on the way lands up to 100 ticks early (see the guide).
        let messages = failures.map { $0.message.replacing(/until tick (19\d\d|2000) \(/) { _ in "until tick 2000 (" } }
        #expect(
            messages == [
                "The test has slept on the virtual clock until tick 2000 (it is tick 0) for a second of real time with "
                    + "none of its tasks ready to run, so nothing of the test can advance the clock and it would wait "
                    + "forever. Drive the clock from the test instead — start the sleeping work in a Task, then await "
                    + "clock.advance(by:) or clock.run() — or let the work sleep on a clock of its own. The sleep was "
                    + "ended with CancellationError."
            ])
    }

    @Test func onASystemClockOnlyTheTwoEqualSleepsMayWakeInEitherOrder() {
        let expected = ScenarioKind.taskGroup.expectedTrace
        #expect(ScenarioKind.taskGroup.isExpectedOnASystemClock(expected))
        #expect(
            ScenarioKind.taskGroup.isExpectedOnASystemClock(
                [["start"], ["start", "b", "a"], ["start", "b", "a", "c", "two"]]
            ))
        for wrong in [
            [["start"], ["start", "a"], ["start", "a", "b", "c", "two"]],
            [["start"], ["start", "a", "c"], ["start", "a", "c", "b", "two"]],
            [["start"], ["start", "a", "b"], ["start", "a", "b", "two", "c"]],
            [["start"], ["start", "b", "a"], ["start", "b", "a", "c"]],
        ] {
            #expect(!ScenarioKind.taskGroup.isExpectedOnASystemClock(wrong), "\(wrong)")
        }
        #expect(!ScenarioKind.published.isExpectedOnASystemClock(expected))
        #expect(ScenarioKind.published.isExpectedOnASystemClock(ScenarioKind.published.expectedTrace))
    }

    @Test(.enabled(if: supported))
    func theScenarioGivesTheSameTraceAThousandTimes() async {
        var traces: Set<[[String]]> = []
        for _ in 0..<1_000 {
            traces.insert(
                await withVirtualTime(systemClocks: .virtual) { clock in
                    await driveScenario(.published, on: clock, sleepingOn: ContinuousClock())
                })
        }
        #expect(traces == [ScenarioKind.published.expectedTrace])
    }

    // MARK: Every way to sleep on a system clock

    @Test(.enabled(if: supported))
    func everyWayToSleepOnASystemClockWakesWhenTheVirtualClockReachesItsDeadline() async {
        let woken = Synchronized<[String]>([])
        await withVirtualTime(systemClocks: .virtual) { clock in
            let sleepers = [
                Task {
                    try await Task.sleep(for: .seconds(1))
                    woken.update { $0.append("Task.sleep(for:)") }
                },
                Task {
                    try await Task.sleep(nanoseconds: 2_000_000_000)
                    woken.update { $0.append("nanoseconds") }
                },
                Task {
                    try await Task.sleep(until: .now + .seconds(3), clock: .continuous)
                    woken.update { $0.append("Task.sleep(until:clock:)") }
                },
                Task {
                    try await ContinuousClock().sleep(for: .seconds(4))
                    woken.update { $0.append("continuous") }
                },
                Task {
                    try await SuspendingClock().sleep(for: .seconds(5))
                    woken.update { $0.append("suspending") }
                },
            ]
            // A sleep is measured from when it reaches Cadence: it may land early by as long as the thread was held up
            // on the way — milliseconds under load or ThreadSanitizer (see the guide). Hence the margin.
            await clock.advance(by: .milliseconds(900))
            #expect(woken.value == [])
            for (second, expected) in [
                "Task.sleep(for:)", "nanoseconds", "Task.sleep(until:clock:)", "continuous", "suspending",
            ].enumerated() {
                await clock.advance(to: VirtualClock.Instant(ticks: Int64(second + 1) * 1000))
                #expect(woken.value.last == expected)
                #expect(woken.value.count == second + 1)
            }
            for sleeper in sleepers { #expect((try? await sleeper.value) != nil) }
            #expect(clock.now.ticks == 5000)
        }
    }

    /// A sleep made on an actor other than the main actor asks that actor's executor first, then the runtime's
    /// default one — never Cadence's — so it stays on the wall clock.
    @Test(.enabled(if: supported))
    func aSleepInsideAnotherActorStaysOnTheWallClock() async {
        actor Poller {
            private(set) var polls = 0
            func poll() async throws {
                try await Task.sleep(for: .seconds(3600))
                polls += 1
            }
        }
        await withVirtualTime(systemClocks: .virtual) { clock in
            let poller = Poller()
            let polling = Task { try await poller.poll() }
            await clock.advance(by: .seconds(7200))
            #expect(await poller.polls == 0)
            polling.cancel()
            await #expect(throws: CancellationError.self) { try await polling.value }
        }
    }

    @Test(.enabled(if: supported), .hangGuard)
    func aSleepWhoseDeadlineHasPassedEndsWithNoAdvance() async throws {
        try await withVirtualTime(systemClocks: .virtual) { clock in
            try await Task { try await Task.sleep(for: .zero) }.value
            try await Task { try await ContinuousClock().sleep(until: .now - .seconds(1)) }.value
            #expect(clock.now.ticks == 0)
        }
    }

    /// A session asked for `systemClocks: .virtual` reports nothing where it can take such sleeps (Linux), and says
    /// why not where it cannot (an Apple SDK, an older runtime).
    @Test func aSessionSaysWhereItCannotTakeSystemSleeps() async {
        let messages = await recordingFailures {
            await withVirtualTime(systemClocks: .virtual) { _ in }
        }.map(\.message)
        switch VirtualClock.systemSleepSupport {
        case .available:
            #expect(messages == [])
        case .notInAppleSDKs:
            #expect(
                messages == [
                    "withVirtualTime(systemClocks: .virtual) needs executors that take delayed jobs, which Apple's SDKs "
                        + "do not offer yet (Swift 6.3's SchedulingExecutor is behind an SPI of the standard library that "
                        + "they do not ship): the body's sleeps on ContinuousClock and SuspendingClock, Task.sleep's "
                        + "included, stay on the wall clock. Inject the test's VirtualClock instead."
                ])
        case .runtimeTooOld:
            #expect(messages.count == 1 && messages[0].contains("which this runtime lacks"), "\(messages)")
        }
    }

    // MARK: Cancellation and the session's end

    @Test(.enabled(if: supported))
    func aVirtualSleepCancelledThrowsAtOnce() async {
        await withVirtualTime(systemClocks: .virtual) { clock in
            let sleeper = Task { try await Task.sleep(for: .seconds(60)) }
            await clock.advance(by: .seconds(1))
            sleeper.cancel()
            await #expect(throws: CancellationError.self) { try await sleeper.value }
            #expect(clock.now.ticks == 1000)
        }
    }

    @Test(.enabled(if: supported))
    func aSleepCancelledIsNoLongerPendingNorSeenAsASleep() async {
        await expectFailures([]) {
            await withVirtualTime(horizon: .zero, systemClocks: .virtual) { clock in
                // A search box's debounce: each keystroke cancels the sleep of the one before.
                let first = Task { try await Task.sleep(for: .seconds(60)) }
                await clock.advance(by: .zero)
                first.cancel()
                await #expect(throws: CancellationError.self) { try await first.value }
                // A task cancelled before it sleeps throws at once too.
                let second = Task {
                    withUnsafeCurrentTask { $0?.cancel() }
                    try await Task.sleep(for: .seconds(30))
                }
                await #expect(throws: CancellationError.self) { try await second.value }
                await clock.advance(by: .zero)
                #expect(clock.pendingDueTicks == [])
            }
        }
    }

    /// The failure for a sleep on a system clock still pending at `tick` when the body returned at tick 0.
    static func pendingSleep(at tick: Int) -> String {
        "The body returned at tick 0 and left work on the virtual clock:\n"
            + "  a task asleep in Task.sleep (or a sleep on ContinuousClock or SuspendingClock), since tick 0, until "
            + "tick \(tick)\n"
            + "Finish, cancel or await that work before the body returns, or let this test leave it with "
            + "withVirtualTime(leftovers: .allowed)."
    }

    /// Checks that `body` reports `expected`, where a ten-second sleep's report says tick 10000 — or a tick up to 100
    /// earlier, where a sleep measured late by a thread held up on the way lands (see the guide).
    static func expectPendingSleepReports(
        _ expected: [String],
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async -> Void
    ) async {
        let messages = await recordingFailures(body).map { failure in
            failure.message.replacing(/until tick (99\d\d|10000)\n/) { _ in "until tick 10000\n" }
        }
        if messages != expected {
            Issue.record(
                Comment(rawValue: differingReports(expected: expected, received: messages)),
                sourceLocation: sourceLocation
            )
        }
    }

    @Test(.enabled(if: supported))
    func aSleepStillPendingWhenTheSessionEndsIsReportedAndCancelled() async {
        let outcome = Synchronized<String?>(nil)
        await Self.expectPendingSleepReports([Self.pendingSleep(at: 10000)]) {
            await withVirtualTime(horizon: .zero, systemClocks: .virtual) { clock in
                Task {
                    do {
                        try await Task.sleep(for: .seconds(10))
                        outcome.value = "woke"
                    } catch {
                        outcome.value = "\(type(of: error))"
                    }
                }
                await clock.advance(by: .zero)
            }
        }
        #expect(outcome.value == "CancellationError")
    }

    @Test(.enabled(if: supported))
    func aSleepAfterTheClockEndedIsReportedAndEndsAtOnce() async {
        let outcome = Synchronized<String?>(nil)
        await Self.expectPendingSleepReports([
            Self.pendingSleep(at: 10000),
            "Task.sleep (or a sleep on ContinuousClock or SuspendingClock) was called after the clock's test ended "
                + "(at tick 0); the sleep ends at once with CancellationError.",
        ]) {
            await withVirtualTime(horizon: .zero, systemClocks: .virtual) { clock in
                // Cancelled as the clock ends, it lets the second task go on, which then sleeps on an ended clock.
                let first = Task { try await Task.sleep(for: .seconds(10)) }
                Task {
                    _ = await first.result
                    do {
                        try await Task.sleep(for: .seconds(1))
                        outcome.value = "woke"
                    } catch {
                        outcome.value = "\(type(of: error))"
                    }
                }
                await clock.advance(by: .zero)
            }
        }
        #expect(outcome.value == "CancellationError")
    }

    // MARK: Outside .virtual

    @Test func withoutTheOptionASleepOnASystemClockStaysOnTheWallClock() async {
        await withVirtualTime { clock in
            let sleeper = Task { try await Task.sleep(for: .seconds(3600)) }
            await clock.advance(by: .seconds(7200))
            #expect(clock.now.ticks == 7_200_000)
            sleeper.cancel()
            // Woken by the cancellation, not by the virtual clock: it throws.
            await #expect(throws: CancellationError.self) { try await sleeper.value }
        }
    }

    @Test(.enabled(if: supported), .hangGuard)
    func aMainActorSleepOutsideASessionStaysOnTheWallClock() async throws {
        // A session installs Cadence's main-actor executor: from then on every main-actor sleep passes through it.
        await withVirtualTime(systemClocks: .virtual) { _ in }
        let start = ContinuousClock.now
        try await Task { @MainActor in try await Task.sleep(for: .milliseconds(50)) }.value
        #expect(ContinuousClock.now - start >= .milliseconds(50))
    }
}
