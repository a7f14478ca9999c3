import CadenceTesting
import Foundation
import Testing

@Suite struct VirtualTimeTraitTests {
    // MARK: The clock each test gets

    @Test(.virtualTime) func aTestGetsAFreshClockAtTickZeroThatItsSchedulersShare() throws {
        let clock = try #require(VirtualClock.current)
        #expect(ClockRegistry.shared.register(clock))
        #expect(clock.now.ticks == 0)
        #expect(!clock.hasEnded)
        #expect(DispatchQueue.test.clock === clock)
        #expect(TestScheduler<VirtualTime, Never>().clock === clock)
    }

    @Test(.virtualTime) func expectDrivesTheTestsClock() throws {
        let clock = try #require(VirtualClock.current)
        let delayed = Just(7).delay(for: .seconds(2), scheduler: DispatchQueue.test)
        let expectation = expect(delayed).toEmit(7, within: .seconds(2)).thenFinish()
        #expect(clock.now.ticks == 2000)
        #expect(expectation.events.map(\.time) == [EventTime.tick(0), .tick(2000), .tick(2000)])
    }

    @Test(.virtualTime) func asyncTestsKeepTheClockAcrossSuspensions() async throws {
        let clock = try #require(VirtualClock.current)
        await Task.yield()
        let inChild = await Task { VirtualClock.current }.value
        #expect(inChild === clock)
        #expect(VirtualClock.current === clock)
    }

    @Test(.virtualTime, arguments: 1...8)
    func eachCaseOfAParameterisedTestHasAClockOfItsOwn(ticks: Int) throws {
        let clock = try #require(VirtualClock.current)
        #expect(ClockRegistry.shared.register(clock))
        #expect(clock.now.ticks == 0)
        DispatchQueue.test.advance(by: .milliseconds(ticks))
        #expect(clock.now.ticks == Int64(ticks))
    }

    // MARK: What the trait reports

    @Test(
        .reportsFailures([
            """
            expect(CurrentValueSubject<Int, Never>) received 1 event after its chain had ended: 2 at tick 0.

                expect(CurrentValueSubject<Int, Never>)
              ✓   .toEmit(1)

                 tick  received      expected
                    0  subscription
                    0  1             1          toEmit(1)
              →     0  2             (no step)
            """
        ]),
        .virtualTime
    )
    func lateOverFulfilmentInTheBodyIsReportedWhenTheTestEnds() {
        let subject = CurrentValueSubject<Int, Never>(1)
        expect(subject).toEmit(1)
        subject.send(2)
    }

    @Test(
        .reportsFailures([
            """
            expect(Publishers.Delay<…>) received 1 event after its chain had ended: 2 at tick 5010.

                expect(Publishers.Delay<…>)
              ✓   .toEmit(1)

                 tick  received      expected
                    0  subscription
                   10  1             1          toEmit(1)
              →  5010  2             (no step)
            """
        ]),
        // A test of the drain: the delayed value and the scheduled send are left to it on purpose.
        .virtualTime(leftovers: .allowed)
    )
    func lateOverFulfilmentFromLeftoverWorkIsReportedOnceTheClockIsDrained() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let expectation = expect(subject.delay(for: .milliseconds(10), scheduler: scheduler))
        subject.send(1)
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(5))) { subject.send(2) }
        expectation.toEmit(1)
    }

    @Test(
        .reportsFailures([
            """
            The virtual clock was still busy .seconds(60) after the test body returned (at tick 0): 1 scheduled \
            action, due at tick 61000, never ran. An endless repeating timer, or work that keeps rescheduling \
            itself? Cancel it before the test body returns, or give .virtualTime(horizon:) a longer horizon.
            """
        ]),
        // A test of the opt-out's note: it leaves its endless timer running on purpose.
        .virtualTime(horizon: .seconds(60), leftovers: .allowed)
    )
    func anEndlessTimerIsDrainedToTheHorizonAndNoted() throws {
        let clock = try #require(VirtualClock.current)
        clock.schedule(at: .init(ticks: 1000), every: .seconds(1)) {}
    }

    @Test(
        .reportsFailures([
            """
            The test body returned at tick 0 and left work on the virtual clock:
              3 scheduled actions, due at ticks 500, 5000 and 10000
            Finish, cancel or await that work before the test body returns, or let this test leave it with \
            .virtualTime(leftovers: .allowed).
            """
        ]),
        .virtualTime(horizon: .seconds(1))
    )
    func workLeftBehindFailsTheTest() throws {
        let clock = try #require(VirtualClock.current)
        clock.schedule(after: .seconds(10)) {}
        clock.schedule(after: .seconds(5)) {}
        clock.schedule(after: .milliseconds(500)) {}
    }

    // A test of the opt-out itself: it leaves work that the drain finishes.
    @Test(.reportsFailures([]), .virtualTime(horizon: .seconds(1), leftovers: .allowed))
    func leftoversAllowedIsQuietWhenTheClockGoesIdle() throws {
        let clock = try #require(VirtualClock.current)
        clock.schedule(after: .seconds(1)) {}
        clock.schedule(after: .seconds(2)) {}.cancel()
    }

    @Test(.reportsFailures([]), .virtualTime)
    func aTestThatNeverUsesTimeReportsNothing() {}

    @Test(
        .reportsFailures([
            """
            VirtualClock.advance(by:) was given a negative duration (-1 tick); time never goes backwards, so the \
            clock stays at tick 0.
            """
        ]),
        .virtualTime
    )
    func clockMisuseIsRecordedIntoTheTest() throws {
        try #require(VirtualClock.current).advance(by: .ticks(-1))
    }

    @Test(
        .reportsFailures([
            """
            .virtualTime(horizon:) was given a negative horizon (-1000 ticks); time never goes backwards, so only \
            the work already due when the test body returned (at tick 0) ran.
            """
        ]),
        .virtualTime(horizon: .seconds(-1))
    )
    func aNegativeHorizonIsReported() {}

    // MARK: Into Swift Testing

    #if compiler(>=6.3)
    @Test(
        .recordsIssues([
            ExpectedIssue(lateTwoMessage, line: VirtualTimeTraitTests.lateIssueLine)
        ]), .virtualTime)
    func lateOverFulfilmentBecomesAnIssueAtTheExpectation() {
        let subject = CurrentValueSubject<Int, Never>(1)
        expect(subject).toEmit(1)
        subject.send(2)
    }

    /// The line of the `expect` above.
    static let lateIssueLine = #line - 5

    static let busyNoteLine = #line + 1
    @Test(
        .recordsIssues([
            ExpectedIssue(
                """
                The virtual clock was still busy .ticks(10) after the test body returned (at tick 0): 1 scheduled \
                action, due at tick 12, never ran. An endless repeating timer, or work that keeps rescheduling itself? \
                Cancel it before the test body returns, or give .virtualTime(horizon:) a longer horizon.
                """,
                severity: .warning, line: busyNoteLine
            )
            // A test of the opt-out's note: it leaves its endless timer running on purpose.
        ]), .virtualTime(horizon: .milliseconds(10), leftovers: .allowed))
    func theBusyClockNoteIsAWarningAtTheTest() throws {
        try #require(VirtualClock.current).schedule(at: .init(ticks: 0), every: .milliseconds(3)) {}
    }

    static let leftBehindLine = #line + 1
    @Test(
        .recordsIssues([
            ExpectedIssue(
                """
                VirtualClock.advance(by:) was given a negative duration (-1 tick); time never goes backwards, so the \
                clock stays at tick 0.
                """,
                line: leftBehindLine
            ),
            ExpectedIssue(
                """
                The test body returned at tick 0 and left work on the virtual clock:
                  1 scheduled action, due at tick 11
                Finish, cancel or await that work before the test body returns, or let this test leave it with \
                .virtualTime(leftovers: .allowed).
                """,
                line: leftBehindLine
            ),
        ]), .virtualTime(horizon: .milliseconds(10)))
    func workLeftBehindAndClockMisuseAreFailuresAtTheTest() throws {
        let clock = try #require(VirtualClock.current)
        clock.schedule(after: .milliseconds(11)) {}
        clock.advance(by: .ticks(-1))
    }
    #endif

    // MARK: The scope, driven directly

    @Test func theScopeEndsTheClockAndReportsLaterSchedulingAtTheTest() async throws {
        let test = try #require(Test.current)
        let box = Synchronized<VirtualClock?>(nil)
        let failures = try await recordingFailures {
            try await VirtualTimeTrait().provideScope(for: test, testCase: Test.Case.current) {
                box.value = VirtualClock.current
            }
            box.value?.schedule(after: .ticks(1)) {}
        }
        let clock = try #require(box.value)
        #expect(clock.hasEnded)
        #expect(
            failures.map(\.message) == [
                "VirtualClock.schedule(after:) was called after the clock's test ended (at tick 0); the action will "
                    + "never run."
            ])
        #expect(failures.map(\.location.fileID) == [test.sourceLocation.fileID])
        #expect(failures.map(\.location.line) == [test.sourceLocation.line])
    }

    @Test(.hangGuard)
    func aStalledSleepIsOneFailureNotASecondForTheCancellationErrorThatEndedIt() async throws {
        let test = try #require(Test.current)
        let thrown = Synchronized<String?>(nil)
        await expectFailures([AsyncVirtualTimeTests.stalledUntilTick1000]) {
            do {
                try await VirtualTimeTrait().provideScope(for: test, testCase: Test.Case.current) {
                    // Nothing of the test advances the clock: the session reports it and ends the sleep.
                    try await VirtualClock.current?.sleep(for: .seconds(1))
                }
            } catch {
                thrown.value = "\(type(of: error))"
            }
        }
        #expect(thrown.value == nil)
    }

    @Test func aCancellationErrorOfTheTestsOwnStillFailsIt() async throws {
        let test = try #require(Test.current)
        let thrown = Synchronized<String?>(nil)
        await expectFailures([]) {
            do {
                try await VirtualTimeTrait().provideScope(for: test, testCase: Test.Case.current) {
                    throw CancellationError()
                }
            } catch {
                thrown.value = "\(type(of: error))"
            }
        }
        #expect(thrown.value == "CancellationError")
    }

    @Test func leftoverWorkRunsAfterTheBodyWithoutMovingTimePastIt() async throws {
        let test = try #require(Test.current)
        let box = Synchronized<VirtualClock?>(nil)
        let runs = Synchronized(0)
        try await expectFailures([]) {
            // A test of the drain: it leaves its actions to it on purpose.
            try await VirtualTimeTrait(leftovers: .allowed).provideScope(for: test, testCase: Test.Case.current) {
                let clock = VirtualClock.current
                box.value = clock
                clock?.schedule(after: .seconds(5)) { runs.update { $0 += 1 } }
                clock?.schedule(after: .seconds(7)) { runs.update { $0 += 1 } }
            }
        }
        #expect(runs.value == 2)
        #expect(box.value?.now.ticks == 7000)
    }

    @Test func anEndlessTimerRunsUntilTheHorizonOnly() async throws {
        let test = try #require(Test.current)
        let runs = Synchronized(0)
        let failures = try await recordingFailures {
            try await VirtualTimeTrait(horizon: .seconds(10)).provideScope(for: test, testCase: Test.Case.current) {
                VirtualClock.current?.schedule(at: .init(ticks: 0), every: .seconds(1)) { runs.update { $0 += 1 } }
            }
        }
        #expect(runs.value == 11)
        #expect(failures.count == 1)
    }

    @Test func aThrowingBodyEndsTheClockWithoutRunningOrReportingAnything() async throws {
        let test = try #require(Test.current)
        let box = Synchronized<VirtualClock?>(nil)
        let runs = Synchronized(0)
        await expectFailures([]) {
            await #expect(throws: BodyError.self) {
                try await VirtualTimeTrait(leftovers: .fail).provideScope(for: test, testCase: Test.Case.current) {
                    box.value = VirtualClock.current
                    VirtualClock.current?.schedule(after: .seconds(1)) { runs.update { $0 += 1 } }
                    throw BodyError()
                }
            }
        }
        #expect(runs.value == 0)
        #expect(box.value?.hasEnded == true)
    }

    @Test func theTraitScopesEachTestCaseAndNeverAWholeTest() throws {
        let test = try #require(Test.current)
        let trait = VirtualTimeTrait.virtualTime
        #expect(trait.isRecursive)
        #expect(trait.scopeProvider(for: test, testCase: nil) == nil)
        #expect(trait.scopeProvider(for: test, testCase: Test.Case.current) != nil)
        #expect(VirtualTimeTrait.virtualTime(horizon: .seconds(5)).horizon == .seconds(5))
        #expect(VirtualTimeTrait.virtualTime(horizon: .seconds(5), leftovers: .allowed).leftovers == .allowed)
        #expect(VirtualTimeTrait.virtualTime.horizon == VirtualClock.defaultHorizon)
        #expect(VirtualTimeTrait.virtualTime.leftovers == .fail)
    }

    @Test(.quietKnownIssues) func lateOverFulfilmentIsRecordedAsAnIssueAtTheExpectation() async throws {
        let test = try #require(Test.current)
        let line = Synchronized(0)
        try await withKnownIssue {
            try await VirtualTimeTrait().provideScope(for: test, testCase: Test.Case.current) {
                let subject = CurrentValueSubject<Int, Never>(1)
                line.value = #line + 1
                expect(subject).toEmit(1)
                subject.send(2)
            }
        } matching: { issue in
            issue.comments.map(\.rawValue) == [lateTwoMessage]
                && issue.sourceLocation?.line == line.value && isError(issue)
        }
    }
}

/// A suite under `.virtualTime`: every test in it, nested suites included, gets a clock of its own.
@Suite(.virtualTime) struct VirtualTimeSuiteTraitTests {
    @Test func aTestInTheSuiteGetsAClock() throws {
        let clock = try #require(VirtualClock.current)
        #expect(ClockRegistry.shared.register(clock))
        #expect(clock.now.ticks == 0)
        clock.advance(by: .seconds(1))
    }

    @Test func anotherTestInTheSuiteGetsAnotherClock() throws {
        let clock = try #require(VirtualClock.current)
        #expect(ClockRegistry.shared.register(clock))
        #expect(clock.now.ticks == 0)
        clock.advance(by: .seconds(2))
    }

    /// 128 cases run in parallel under the suite's trait, each advancing its own clock by its own amount, suspending
    /// between rounds so the runner interleaves them: any clock shared between two cases would show another case's
    /// time.
    @Test(arguments: 0..<128)
    func parallelTestsNeverSeeEachOthersClocks(index: Int) async throws {
        let clock = try #require(VirtualClock.current)
        #expect(ClockRegistry.shared.register(clock))
        #expect(clock.now.ticks == 0)
        let step = Int64(index + 1)
        for round in Int64(1)...3 {
            await clock.advance(by: .ticks(Int(step)))
            await Task.yield()
            #expect(clock.now.ticks == step * round)
            #expect(VirtualClock.current === clock)
        }
        let scheduler = DispatchQueue.test
        #expect(scheduler.clock === clock)
        let delayed = Just(index).delay(for: .milliseconds(index + 1), scheduler: scheduler)
        let expectation = expect(delayed).toEmit(index, within: .ticks(index + 1)).thenFinish()
        #expect(expectation.events.last?.time == .tick(step * 4))
        #expect(clock.now.ticks == step * 4)
    }

    @Test(arguments: ["a", "b", "c"]) func eachCaseInTheSuiteGetsAClock(name: String) throws {
        let clock = try #require(VirtualClock.current)
        #expect(ClockRegistry.shared.register(clock))
        #expect(clock.now.ticks == 0)
        expect(Just(name).delay(for: .seconds(1), scheduler: DispatchQueue.test)).toEmit(name).thenFinish()
        #expect(clock.now.ticks == 1000)
    }

    @Test(
        .reportsFailures([
            """
            The virtual clock was still busy .ticks(1) after the test body returned (at tick 0): 1 scheduled action, \
            due at tick 2, never ran. An endless repeating timer, or work that keeps rescheduling itself? Cancel it \
            before the test body returns, or give .virtualTime(horizon:) a longer horizon.
            """
        ]),
        // The test's own horizon and leftovers win over the suite's: it leaves its action for the note on purpose.
        .virtualTime(horizon: .milliseconds(1), leftovers: .allowed)
    )
    func aTestsOwnTraitWinsOverTheSuites() throws {
        try #require(VirtualClock.current).schedule(after: .milliseconds(2)) {}
    }

    @Suite struct Nested {
        @Test func aTestInANestedSuiteGetsAClockToo() throws {
            let clock = try #require(VirtualClock.current)
            #expect(ClockRegistry.shared.register(clock))
            #expect(clock.now.ticks == 0)
        }
    }
}

private struct BodyError: Error {}

/// What `expect(subject).toEmit(1)` then `subject.send(2)` on a `CurrentValueSubject(1)` reports.
let lateTwoMessage = """
    expect(CurrentValueSubject<Int, Never>) received 1 event after its chain had ended: 2 at tick 0.

        expect(CurrentValueSubject<Int, Never>)
      ✓   .toEmit(1)

         tick  received      expected
            0  subscription
            0  1             1          toEmit(1)
      →     0  2             (no step)
    """
