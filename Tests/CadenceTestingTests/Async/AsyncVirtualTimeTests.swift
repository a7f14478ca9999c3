import CadenceSupport
import CadenceTesting
import Foundation
import Testing

@Suite struct AsyncVirtualTimeTests {
    // MARK: The scenario and its twins

    @MainActor @Test(.virtualTime, arguments: ScenarioKind.allCases)
    func theScenarioRunsStepByStepOnVirtualTime(_ kind: ScenarioKind) async throws {
        let clock = try #require(VirtualClock.current)
        #expect(await driveScenario(kind, on: clock) == kind.expectedTrace)
    }

    @Test(arguments: ScenarioKind.allCases)
    func theScenarioRunsStepByStepInWithVirtualTime(_ kind: ScenarioKind) async {
        let trace = await withVirtualTime { clock in await driveScenario(kind, on: clock) }
        #expect(trace == kind.expectedTrace)
    }

    @Test func theScenarioAndItsTwinsGiveTheSameTraceTenThousandTimes() async {
        var traces: [ScenarioKind: Set<[[String]]>] = [:]
        for _ in 0..<10_000 {
            for kind in ScenarioKind.allCases {
                let trace = await withVirtualTime { clock in await driveScenario(kind, on: clock) }
                traces[kind, default: []].insert(trace)
            }
        }
        for kind in ScenarioKind.allCases {
            #expect(traces[kind] == [kind.expectedTrace], "\(kind)")
        }
    }

    @Test func aSessionInsideAnotherRunsItsOwnTasksAndGivesTheBodyBack() async {
        var traces: Set<[[String]]> = []
        var outerTraces: Set<[[String]]> = []
        for _ in 0..<200 {
            let (inner, outer) = await withVirtualTime { outerClock in
                let outerLoader = await Loader(clock: outerClock)
                await outerLoader.start()
                let inner = await withVirtualTime { clock in await driveScenario(.published, on: clock) }
                var outer: [[String]] = []
                await outerClock.advance(by: .zero)
                outer.append(await outerLoader.log)
                await outerClock.run()
                outer.append(await outerLoader.log)
                return (inner, outer)
            }
            traces.insert(inner)
            outerTraces.insert(outer)
        }
        #expect(traces == [ScenarioKind.published.expectedTrace])
        #expect(outerTraces == [[["start"], ["start", "one", "two"]]])
    }

    /// A task of the outer session that runs a session of its own stays the outer session's: the outer `advance`
    /// waits for it as for any task that is not suspended (the outer session's jobs wait while the inner one runs
    /// its own), and gets it back once the inner session ends.
    @Test func aSessionInATaskOfAnotherKeepsTheOuterWaitingUntilTheInnerOneEnds() async {
        var logs: Set<[String]> = []
        for _ in 0..<100 {
            // A task of either session left alive (the inner session's reporter's, say) is a failure by default.
            let log = await withVirtualTime { outerClock in
                let log = Locked<[String]>([])
                Task {
                    let trace = await withVirtualTime { clock in await driveScenario(.published, on: clock) }
                    log.withLock {
                        $0.append(trace == ScenarioKind.published.expectedTrace ? "inner session done" : "\(trace)")
                    }
                }
                await outerClock.advance(by: .zero)
                return log.withLock { $0 }
            }
            logs.insert(log)
        }
        #expect(logs == [["inner session done"]])
    }

    @Test func theTestSchedulerDrivesTheTestsTasksToo() async {
        let log = await withVirtualTime { clock in
            let scheduler = DispatchQueue.test
            let loader = await Loader(clock: clock)
            await loader.start()
            await scheduler.advance()
            let afterStart = await loader.log
            await scheduler.advance(by: .seconds(1))
            let afterOne = await loader.log
            await scheduler.run()
            return [afterStart, afterOne, await loader.log]
        }
        #expect(log == [["start"], ["start", "one"], ["start", "one", "two"]])
    }

    @Test func advancingToADeadlineRunsTheTasksOnTheWay() async {
        let log = await withVirtualTime { clock in
            let loader = await Loader(clock: clock)
            await loader.start()
            await clock.advance(to: VirtualClock.Instant(ticks: 2000))
            return (await loader.log, clock.now.ticks)
        }
        #expect(log.0 == ["start", "one", "two"])
        #expect(log.1 == 2000)
    }

    @Test func outsideASessionTheAsyncAdvanceRunsTheActionsDueAsTheSynchronousOneDoes() async {
        let clock = VirtualClock()
        let fired = Synchronized(0)
        clock.schedule(after: .seconds(1)) { fired.update { $0 += 1 } }
        await clock.advance(by: .seconds(1))
        #expect(fired.value == 1)
        #expect(clock.now.ticks == 1000)
        clock.schedule(after: .seconds(1)) { fired.update { $0 += 1 } }
        await clock.advance(to: VirtualClock.Instant(ticks: 1500))
        #expect(fired.value == 1)
        await clock.run()
        #expect(fired.value == 2)
        #expect(clock.now.ticks == 2000)
    }

    @Test func theTestSchedulersAsyncFormsDriveItsClock() async {
        let scheduler = DispatchQueue.test
        let fired = Synchronized(0)
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { fired.update { $0 += 1 } }
        await scheduler.advance(by: .milliseconds(999))
        #expect(fired.value == 0)
        await scheduler.advance()
        #expect(fired.value == 0)
        await scheduler.run()
        #expect(fired.value == 1)
    }

    /// `await clock.advance()`, as swift-clocks spells it: by zero, letting the ready tasks run.
    @Test func anAdvanceWithNoDurationLetsTheReadyTasksRunAndKeepsTime() async {
        await withVirtualTime { clock in
            let log = Synchronized<[String]>([])
            Task { log.withLock { $0.append("ran") } }
            await clock.advance()
            #expect(log.withLock { $0 } == ["ran"])
            #expect(clock.now.ticks == 0)
        }
    }

    // MARK: Bad input

    /// What an advance reports of a task that never lets it go idle.
    static let advanceGaveUp =
        "await VirtualClock.advance(by:) stopped waiting for the test's tasks after running "
        + "100,000 jobs at tick 0 with 1 job still ready to run: a task that never suspends on the clock and never "
        + "finishes (a loop of Task.yield()?) never lets the test go idle. It is left running; make it sleep on the "
        + "clock, await something, or finish."

    @Test func aTaskThatNeverSuspendsIsReportedAndTheAdvanceGoesOn() async {
        await expectFailures([Self.advanceGaveUp]) {
            let now = await withVirtualTime { clock in
                let spinning = Task { while !Task.isCancelled { await Task.yield() } }
                await clock.advance(by: .seconds(1))
                spinning.cancel()
                return clock.now.ticks
            }
            #expect(now == 1000)
        }
    }

    /// What a session reports of a task that still spins when its body returns: once, what it handed back (its own
    /// waits give up on the task without a report of their own).
    static let stillSpinningAtTheEnd = [
        "1 job of the tasks the body started was still ready to run when it ended: a task that never suspends on "
            + "the clock and never finishes (a loop of Task.yield()?). Its task was cancelled and handed back to "
            + "the Swift runtime, off virtual time; make such a task sleep on the clock, await something, or "
            + "finish."
    ]

    /// A task reported by the test's own advance and still spinning when the body returns is not reported again.
    @Test func aRunawayTaskReportedByAnAdvanceIsOneFailure() async {
        await expectFailures([Self.advanceGaveUp]) {
            let spinning = await withVirtualTime { clock in
                let spinning = Task { while !Task.isCancelled { await Task.yield() } }
                await clock.advance(by: .seconds(1))
                return spinning
            }
            #expect(spinning.isCancelled)
            spinning.cancel()
            await spinning.value
        }
    }

    @Test func aTaskStillSpinningWhenTheBodyEndsIsReportedCancelledAndHandedBack() async {
        await expectFailures(Self.stillSpinningAtTheEnd) {
            let spinning = await withVirtualTime { _ async in
                Task<Int, Never> {
                    var turns = 0
                    while !Task.isCancelled {
                        turns += 1
                        await Task.yield()
                    }
                    return turns
                }
            }
            // Handed back cancelled, the loop ends on the runtime's own executor.
            #expect(spinning.isCancelled)
            spinning.cancel() // So that a failed check above ends the loop instead of hanging the run.
            #expect(await spinning.value > 0)
        }
    }

    /// A task that yields leaves either itself or the continuation that resumes it waiting, one job after the other;
    /// two tasks a job apart leave one of each when the session ends, and both are cancelled.
    @Test func tasksStillSpinningInEitherHalfOfAYieldAreBothCancelled() async {
        await expectFailures([
            "2 jobs of the tasks the body started were still ready to run when it ended: a task that never suspends "
                + "on the clock and never finishes (a loop of Task.yield()?). Their tasks were cancelled and handed "
                + "back to the Swift runtime, off virtual time; make such a task sleep on the clock, await something, "
                + "or finish."
        ]) {
            let (spinning, hopping) = await withVirtualTime { _ async in
                let spinning = Task<Int, Never> {
                    var turns = 0
                    while !Task.isCancelled {
                        turns += 1
                        await Task.yield()
                    }
                    return turns
                }
                // One hop to the main actor first: a job later than the first task in the same turn.
                let hopping = Task<Int, Never> { await Self.spinOnTheMainActor() }
                return (spinning, hopping)
            }
            #expect(spinning.isCancelled)
            #expect(hopping.isCancelled)
            spinning.cancel()
            hopping.cancel()
            #expect(await spinning.value > 0)
            #expect(await hopping.value > 0)
        }
    }

    @MainActor private static func spinOnTheMainActor() async -> Int {
        var turns = 0
        while !Task.isCancelled {
            turns += 1
            await Task.yield()
        }
        return turns
    }

    @Test func aMainActorTaskStillSpinningWhenTheBodyEndsIsHandedBackToTheMainQueue() async {
        await expectFailures(Self.stillSpinningAtTheEnd) {
            let spinning = await withVirtualTime { _ async in
                Task<Int, Never> { @MainActor in
                    var turns = 0
                    while !Task.isCancelled {
                        turns += 1
                        await Task.yield()
                    }
                    return turns
                }
            }
            // Handed back cancelled to the main queue, the loop ends there.
            #expect(spinning.isCancelled)
            spinning.cancel()
            #expect(await spinning.value > 0)
        }
    }

    @Test func aTaskWaitingOnAContinuationNobodyResumesIsReportedWhenTheBodyEnds() async {
        let parked = Synchronized<UnsafeContinuation<Void, Never>?>(nil)
        await expectFailures([
            "Tasks that the body started were still suspended when it ended, waiting on a continuation nobody "
                + "resumed or on work outside virtual time (a DispatchQueue, a URL session), after the virtual clock "
                + "had woken its sleepers. Resume, cancel or await them before the body returns, or let this test "
                + "leave them with withVirtualTime(leftovers: .allowed)."
        ]) {
            await withVirtualTime { clock in
                Task { await withUnsafeContinuation { parked.value = $0 } }
                await clock.advance(by: .zero)
                #expect(parked.value != nil)
            }
        }
        parked.value?.resume()
    }

    // MARK: run(timeout:)

    @Test func runWithATimeoutRunsTheTasksAndTheClockUntilIdle() async {
        let log = Synchronized<[String]>([])
        await expectFailures([]) {
            await withVirtualTime { clock in
                Task {
                    try await clock.sleep(for: .seconds(1))
                    log.value.append("one at \(clock.now.ticks)")
                    try await clock.sleep(for: .seconds(1))
                    log.value.append("two at \(clock.now.ticks)")
                }
                await clock.run(timeout: .seconds(5))
            }
        }
        #expect(log.value == ["one at 1000", "two at 2000"])
    }

    @Test func runWithATimeoutGivesUpOnARepeatingTimerAndSaysSo() async {
        let messages = await recordingFailures {
            await withVirtualTime(horizon: .zero) { clock in
                let ticking = Task { for await _ in clock.timer(interval: .seconds(1)) {} }
                await clock.run(timeout: .milliseconds(20))
                ticking.cancel()
            }
        }.map { $0.message.replacing(/tick \d+/) { _ in "tick N" } }
        #expect(
            messages == [
                "VirtualClock.run(timeout:) gave up after 0.02 seconds of real time at tick N, with work still scheduled "
                    + "from tick N on: a repeating timer or a task that sleeps again each time it wakes keeps the clock "
                    + "busy. Advance by a duration instead, or end that work."
            ])
    }

    /// What a session says of a body asleep on its clock with nothing of the test to advance it.
    static let stalledUntilTick1000 =
        "The test has slept on the virtual clock until tick 1000 (it is tick 0) for a "
        + "second of real time with none of its tasks ready to run, so nothing of the test can advance the clock and "
        + "it would wait forever. Drive the clock from the test instead — start the sleeping work in a Task, then "
        + "await clock.advance(by:) or clock.run() — or let the work sleep on a clock of its own. The sleep was ended "
        + "with CancellationError."

    @Test(.hangGuard)
    func aBodyAsleepOnTheClockWithNothingToAdvanceItIsReportedAndWokenNotHung() async {
        /// Work that sleeps on the clock, awaited by the test itself instead of driven.
        func retryAfterASecond(on clock: VirtualClock) async -> String {
            do {
                try await clock.sleep(for: .seconds(1))
                return "slept"
            } catch {
                return "\(type(of: error))"
            }
        }
        let outcome = Synchronized<String?>(nil)
        await expectFailures([Self.stalledUntilTick1000]) {
            await withVirtualTime { clock in
                outcome.value = await retryAfterASecond(on: clock)
            }
        }
        #expect(outcome.value == "CancellationError")
    }

    @Test(.hangGuard)
    func aMainActorBodyAsleepOnTheClockIsReportedToo() async {
        let outcome = Synchronized<String?>(nil)
        await expectFailures([Self.stalledUntilTick1000]) {
            await withVirtualTime { @MainActor clock async in
                do {
                    try await clock.sleep(until: VirtualClock.Instant(ticks: 1000))
                    outcome.value = "slept"
                } catch {
                    outcome.value = "\(type(of: error))"
                }
            }
        }
        #expect(outcome.value == "CancellationError")
    }

    @Test(.hangGuard)
    func aBodyAsleepOnTheClockThatAnotherThreadAdvancesIsNoStall() async {
        await expectFailures([]) {
            await withVirtualTime { clock in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
                    clock.advance(by: .seconds(1))
                }
                let slept: Void? = try? await clock.sleep(for: .seconds(1))
                #expect(slept != nil)
                #expect(clock.now.ticks == 1000)
            }
        }
    }

    @Test func aSleeperLeftOnTheClockIsReportedAndWokenWithCancellationAtTheEnd() async {
        let ended = Synchronized(false)
        await expectFailures([
            "The virtual clock was still busy .ticks(0) after the body returned (at tick 0): 1 task asleep on the "
                + "clock until tick 10000 never woke. A task the body started and left asleep? Cancel or await it "
                + "before the body returns, or give withVirtualTime(horizon:) a longer horizon."
        ]) {
            // A test of the opt-out's note and of the end's CancellationError: it leaves its sleeper on purpose.
            await withVirtualTime(horizon: .zero, leftovers: .allowed) { clock in
                Task {
                    do { try await clock.sleep(for: .seconds(10)) } catch { ended.value = error is CancellationError }
                }
                await clock.advance(by: .zero)
            }
        }
        #expect(ended.value)
    }

    /// A sleep left beside a scheduled action is named as a sleep, in the note when leftovers are allowed and in the
    /// failure by default.
    @Test func aSleeperLeftBesideAnActionIsNamedApartAndFailsByDefault() async {
        await expectFailures([
            "The virtual clock was still busy .ticks(0) after the body returned (at tick 0): 1 scheduled action, due "
                + "at tick 5000, and 1 task asleep on the clock until tick 10000 never ran. An endless repeating "
                + "timer, or work that keeps rescheduling itself? Cancel it before the body returns, or give "
                + "withVirtualTime(horizon:) a longer horizon."
        ]) {
            // A test of the opt-out's note: it leaves its action and its sleeper on purpose.
            await withVirtualTime(horizon: .zero, leftovers: .allowed) { clock in
                _ = clock.schedule(at: clock.now.advanced(by: .seconds(5))) {}
                Task { try? await clock.sleep(for: .seconds(10)) }
                await clock.advance(by: .zero)
            }
        }
        let line = #line + 11
        await expectFailures([
            "The body returned at tick 0 and left work on the virtual clock:\n"
                + "  a task asleep in VirtualClock.sleep(for:) at CadenceTestingTests/AsyncVirtualTimeTests.swift:"
                + "\(line), since tick 0, until tick 10000\n"
                + "  1 scheduled action, due at tick 5000\n"
                + "Finish, cancel or await that work before the body returns, or let this test leave it with "
                + "withVirtualTime(leftovers: .allowed)."
        ]) {
            await withVirtualTime(horizon: .zero) { clock in
                _ = clock.schedule(at: clock.now.advanced(by: .seconds(5))) {}
                Task { try? await clock.sleep(for: .seconds(10)) }
                await clock.advance(by: .zero)
            }
        }
    }
}
