// swift-format-ignore-file
// (The samples keep the layout their guide shows: a block of the guide appears here line for line.)
// The samples of Guides/AsyncAwait.md's "Tasks on virtual time" part, compiled and run as the guide shows them, and
// a test for each sentence of its "What is deterministic and what is not". `Loader` is the one of
// Async/AsyncScenarios.swift, shown in the guide. Change one, change the other.
#if canImport(Observation)
import CadenceSupport
import CadenceTesting
import Dispatch
import Observation
import Testing
#if canImport(XCTest)
import XCTest
#endif

@MainActor @Test(.virtualTime)
func theLoaderLogsEachStepAsTimePasses() async throws {
    let clock = try #require(VirtualClock.current)
    let loader = Loader(clock: clock)
    loader.start()
    await clock.advance(by: .zero)
    #expect(loader.log == ["start"])
    await clock.advance(by: .seconds(1))
    #expect(loader.log == ["start", "one"])
    await clock.run()
    #expect(loader.log == ["start", "one", "two"])
}

#if canImport(XCTest)
final class LoaderTests: XCTestCase {
    func testTheLoaderLogsEachStepAsTimePasses() async {
        await withVirtualTime { clock in
            let loader = await MainActor.run { Loader(clock: clock) }
            await MainActor.run { loader.start() }
            await clock.advance(by: .seconds(1))
            let log = await MainActor.run { loader.log }
            XCTAssertEqual(log, ["start", "one"])
            await clock.run()  // the loader's last step: a task left asleep would fail the test
        }
    }
}
#endif

@MainActor @Test(.virtualTime)
func theLoadersLogPublishesEachStep() throws {
    let loader = Loader(clock: try #require(VirtualClock.current))
    loader.start()
    expect(loader.$log)
        .toEmit([[], ["start"]], within: .zero)
        .thenEmit(["start", "one"], within: .seconds(1))
        .thenEmit(["start", "one", "two"], within: .seconds(1))
}

/// The guide's failure of a value that comes late, as it shows it (the whole message, with its timeline, is checked in
/// `AsyncStepTests`).
@Test func aValueThatComesLateFailsAsTheGuideShows() async {
    let failures = await recordingFailures {
        // A test of a failed step: the loader's later steps are left on the clock on purpose.
        await withVirtualTime(leftovers: .allowed) { @MainActor clock async in
            let loader = Loader(clock: clock)
            loader.start()
            expect(loader.$log)
                .toEmit([[], ["start"]], within: .zero)
                .thenEmit(["start", "one"], within: .milliseconds(500))
        }
    }
    let shown = #"""
        thenEmit(["start", "one"], within: .milliseconds(500)) failed: the value (["start", "one"]) did not arrive within 500 ticks (by tick 500); it arrived at tick 1000, 500 ticks late.
        """#
    #expect(failures.map { $0.message.prefix { $0 != "\n" } } == [Substring(shown)])
}

/// The guide's report of a task that never suspends, as it shows it (the session's own reports of it when the body
/// ends are checked in `AsyncVirtualTimeTests`).
@Test func aTaskThatNeverSuspendsIsReportedAsTheGuideShows() async {
    let failures = await recordingFailures {
        await withVirtualTime { clock in
            let poller = Task { while !Task.isCancelled { await Task.yield() } }
            await clock.advance(by: .seconds(1))
            poller.cancel()
        }
    }
    let shown = #"""
        await VirtualClock.advance(by:) stopped waiting for the test's tasks after running 100,000 jobs at tick 0 with 1 job still ready to run: a task that never suspends on the clock and never finishes (a loop of Task.yield()?) never lets the test go idle. It is left running; make it sleep on the clock, await something, or finish.
        """#
    #expect(failures.map(\.message) == [shown])
}

/// The guide's report of a test asleep on its own clock with nothing to advance it, as it shows it.
@Test(.hangGuard) func aTestAsleepOnItsClockIsReportedAsTheGuideShows() async {
    let failures = await recordingFailures {
        await withVirtualTime { clock in
            try? await clock.sleep(for: .seconds(1))   // nothing of the test advances the clock
        }
    }
    let shown = #"""
        The test has slept on the virtual clock until tick 1000 (it is tick 0) for a second of real time with none of its tasks ready to run, so nothing of the test can advance the clock and it would wait forever. Drive the clock from the test instead — start the sleeping work in a Task, then await clock.advance(by:) or clock.run() — or let the work sleep on a clock of its own. The sleep was ended with CancellationError.
        """#
    #expect(failures.map(\.message) == [shown])
}

/// The guide's report of a test that awaits a task asleep on the clock, as it shows it.
@Test(.hangGuard) func aTestAwaitingATaskAsleepOnTheClockIsReportedAsTheGuideShows() async {
    var outcome: Result<Void, any Error>?
    let failures = await recordingFailures {
        await withVirtualTime { clock in
            let refresh = Task { try await clock.sleep(for: .seconds(1)) }
            outcome = await refresh.result   // the test waits on the task; nothing advances the clock
        }
    }
    let shown = #"""
        The test has waited for a second of real time with none of its tasks ready to run while 1 task sleeps on the virtual clock (until tick 1000; it is tick 0), so nothing of the test can advance the clock and it would wait forever. Is the test awaiting work that sleeps (a task's value, a function that sleeps)? Start that work in a Task, then await clock.advance(by:) or clock.run() before awaiting its result. The sleep was ended with CancellationError.
        """#
    #expect(failures.map(\.message) == [shown])
    #expect(throws: CancellationError.self) { try outcome?.get() }
}

/// The same report when several tasks sleep while the test waits: it counts them, names the first deadline, and ends
/// every sleep.
@Test(.hangGuard) func aTestWaitingWhileTwoTasksSleepOnTheClockIsReportedWithBoth() async {
    var outcomes: [Bool] = []
    let failures = await recordingFailures {
        await withVirtualTime { clock in
            let poller = Task { try await clock.sleep(for: .seconds(5)) }
            let refresh = Task { try await clock.sleep(for: .seconds(1)) }
            outcomes.append((try? await refresh.value) == nil)
            outcomes.append((try? await poller.value) == nil)
        }
    }
    #expect(failures.map(\.message) == [
        "The test has waited for a second of real time with none of its tasks ready to run while 2 tasks sleep on the "
            + "virtual clock (the first until tick 1000; it is tick 0), so nothing of the test can advance the clock "
            + "and it would wait forever. Is the test awaiting work that sleeps (a task's value, a function that "
            + "sleeps)? Start that work in a Task, then await clock.advance(by:) or clock.run() before awaiting its "
            + "result. The sleeps were ended with CancellationError.",
    ])
    #expect(outcomes == [true, true])
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable @MainActor final class ObservableLoader {
    private(set) var log: [String] = []
    @ObservationIgnored private let clock: any Clock<Duration>
    init(clock: any Clock<Duration>) { self.clock = clock }
    func start() { Task { await self.run() } }
    private func run() async {
        log.append("start")
        try? await clock.sleep(for: .seconds(1))
        log.append("one")
        try? await clock.sleep(for: .seconds(1))
        log.append("two")
    }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor @Test(.virtualTime)
func theObservableLoadersLogIsAStream() async throws {
    let clock = try #require(VirtualClock.current)
    let loader = ObservableLoader(clock: clock)
    let log = expect(loader, \.log)
    loader.start()
    await log.advancing(by: .seconds(1))
        .toEmit([[], ["start"], ["start", "one"]])
        .thenIgnoreRest()
    #expect(log.events.map(\.time) == [.tick(0), .tick(0), .tick(0), .tick(1000)])
    await clock.run()  // the loader's last step: a task left asleep would fail the test
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor @Test(.virtualTime)
func theWholeLogNeedsNothingAfterItsLastStep() async throws {
    let loader = ObservableLoader(clock: try #require(VirtualClock.current))
    let log = expect(loader, \.log)
    loader.start()
    await log.advancing(by: .seconds(2))
        .toEmit([[], ["start"], ["start", "one"], ["start", "one", "two"]])
}

/// One test per sentence of the guide's "What is deterministic and what is not".
@MainActor final class Toast: ObservableObject {
    @Published private(set) var message: String?
    func show(_ text: String) {
        message = text
        Task {
            try? await Task.sleep(for: .seconds(3))
            message = nil
        }
    }
}

/// The guide's sample of `systemClocks: .virtual`, where this runtime has it (Swift 6.3's scheduling executors).
@Suite(.enabled(if: VirtualClock.canVirtualizeSystemSleeps)) struct SystemClocksGuideSamples {
    @MainActor @Test(.virtualTime(systemClocks: .virtual))
    func theToastHidesAfterThreeSeconds() async throws {
        let clock = try #require(VirtualClock.current)
        let toast = Toast()
        toast.show("Saved")
        await clock.advance(by: .seconds(2))
        #expect(toast.message == "Saved")
        await clock.advance(by: .seconds(1))
        #expect(toast.message == nil)
    }
}

@Suite struct AsyncAwaitGuideDeterminismTests {
    /// "Every `await clock.advance(by:)`, `advance(to:)` and `run()` returns only once each task of the test that
    /// was ready to run has run until it suspended again or finished."
    @MainActor @Test(.virtualTime) func anAdvanceReturnsOnceEveryReadyTaskHasSuspended() async throws {
        let clock = try #require(VirtualClock.current)
        let log = Locked<[String]>([])
        for name in ["a", "b", "c"] {
            Task {
                log.withLock { $0.append(name) }
                await Task.yield()
                log.withLock { $0.append(name.uppercased()) }
            }
        }
        await clock.advance(by: .zero)
        #expect(log.withLock { $0 }.count == 6)
    }

    /// "The tasks run one at a time, in the order their jobs were enqueued: the same test gives the same trace in
    /// every run."
    @Test func theTasksRunInEnqueueOrderAndGiveTheSameTraceEveryRun() async {
        var traces: Set<[String]> = []
        for _ in 0 ..< 200 {
            let trace = await withVirtualTime { clock in
                let log = Locked<[String]>([])
                for name in ["a", "b", "c"] {
                    Task {
                        log.withLock { $0.append(name) }
                        await Task.yield()
                        log.withLock { $0.append(name.uppercased()) }
                    }
                }
                await clock.advance(by: .zero)
                return log.withLock { $0 }
            }
            traces.insert(trace)
        }
        #expect(traces == [["a", "b", "c", "A", "B", "C"]])
    }

    /// "Sleepers due on the same tick wake in the order they went to sleep."
    @Test func sleepersDueOnTheSameTickWakeInTheOrderTheySlept() async {
        let trace = await withVirtualTime { clock in
            let log = Locked<[String]>([])
            for name in ["first", "second", "third"] {
                Task {
                    try? await clock.sleep(for: .seconds(1))
                    log.withLock { $0.append(name) }
                }
                await clock.advance(by: .zero)
            }
            await clock.advance(by: .seconds(1))
            return log.withLock { $0 }
        }
        #expect(trace == ["first", "second", "third"])
    }

    /// "A change of an `@Observable` property is read at the tick it was made, once the task that made it has
    /// suspended."
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    // The sentence is about tick 0: the loader's later steps are left to the drain on purpose.
    @MainActor @Test(.virtualTime(leftovers: .allowed))
    func anObservableChangeIsReadAtItsTickOnceTheTaskSuspends() async throws {
        let loader = ObservableLoader(clock: try #require(VirtualClock.current))
        let log = expect(loader, \.log)
        loader.start()
        await log.advancing(by: .zero)
        #expect(log.values == [[], ["start"]])
        #expect(log.events.last?.time == .tick(0))
        log.toEmit([[], ["start"]]).thenIgnoreRest()
    }

    /// "Under `systemClocks: .virtual`, a sleep on `ContinuousClock` or `SuspendingClock` by one of the test's tasks
    /// wakes by the tick its deadline falls on — early by as long as the thread was held up between asking for the
    /// sleep and Cadence receiving it, so two equal such sleeps may wake in either order — except one made on an actor
    /// other than the main actor, which stays on the wall clock." (Held up 50 ms would be a machine far busier than a
    /// test run; the check allows that much. The twins' system-clock check allows the two equal sleeps to swap:
    /// `SystemClockSleepTests.onASystemClockOnlyTheTwoEqualSleepsMayWakeInEitherOrder`.)
    @Test(.enabled(if: VirtualClock.canVirtualizeSystemSleeps))
    func underVirtualSystemClocksASleepWakesAtItsDeadlinesTickButNotOnAnotherActor() async {
        actor Napper {
            func nap() async throws { try await Task.sleep(for: .seconds(3600)) }
        }
        let woken = Synchronized<[Int64]>([])
        await withVirtualTime(systemClocks: .virtual) { clock in
            let sleepers = [
                Task { try await ContinuousClock().sleep(for: .milliseconds(250)) },
                Task { try await SuspendingClock().sleep(for: .milliseconds(750)) },
            ]
            for sleeper in sleepers {
                Task { _ = await sleeper.result; woken.update { $0.append(clock.now.ticks) } }
            }
            let napping = Task { try await Napper().nap() }
            await clock.run()
            let ticks = woken.value
            #expect(ticks.count == 2)
            #expect((200...250).contains(ticks.first ?? 0))
            #expect((700...750).contains(ticks.last ?? 0))
            #expect(clock.now.ticks == ticks.last)
            napping.cancel()
            await #expect(throws: CancellationError.self) { try await napping.value }
        }
    }

    /// "Work on a real queue or thread is not the test's: an advance neither waits for it nor runs it."
    @Test func workOnARealQueueIsNeitherWaitedForNorRun() async {
        let gate = DispatchSemaphore(value: 0)
        let done = Locked(false)
        await withVirtualTime { clock in
            DispatchQueue.global().async {
                gate.wait()
                done.withLock { $0 = true }
            }
            await clock.advance(by: .seconds(1))
            #expect(done.withLock { $0 } == false)
            #expect(clock.now.ticks == 1000)
        }
        gate.signal()
    }
}
#endif
