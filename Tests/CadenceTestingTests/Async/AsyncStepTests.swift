import CadenceTesting
import Testing

/// The steps of the DSL in a virtual-time session: a step lets the test's tasks run before it first looks at the events
/// and after each tick's work, so a view model whose task sleeps on the clock is tested step by step, with no `await`.
@Suite struct AsyncStepTests {
    @MainActor @Test(.virtualTime)
    func aStepLetsTheTasksRunBeforeItLooksAndAfterEachTick() throws {
        let clock = try #require(VirtualClock.current)
        let loader = Loader(clock: clock)
        loader.start()
        expect(loader.$log)
            .toEmit([[], ["start"]], within: .zero)
            .thenEmit(["start", "one"], within: .seconds(1))
            .thenEmit(["start", "one", "two"], within: .seconds(1))
        #expect(clock.now.ticks == 2000)
        // The tasks ran nested in the test's own job, which is its task's again afterwards, task-locals and all.
        #expect(VirtualClock.current === clock)
        #expect(withUnsafeCurrentTask { $0 != nil })
    }

    @MainActor @Test(.virtualTime, arguments: [ScenarioKind.published, .repositoryActor, .detached, .taskGroup])
    func everyTwinOfTheScenarioIsTestedByTheSteps(_ kind: ScenarioKind) throws {
        let clock = try #require(VirtualClock.current)
        let log: AnyPublisher<[String], Never>
        switch kind {
        case .published:
            let loader = Loader(clock: clock)
            loader.start()
            log = loader.$log.eraseToAnyPublisher()
        case .repositoryActor:
            let loader = RepositoryLoader(clock: clock)
            loader.start()
            log = loader.$log.eraseToAnyPublisher()
        case .detached:
            let loader = DetachedLoader(clock: clock)
            loader.start()
            log = loader.$log.eraseToAnyPublisher()
        case .taskGroup:
            let loader = GroupLoader(clock: clock)
            loader.start()
            log = loader.$log.eraseToAnyPublisher()
        case .observable:
            Issue.record("The @Observable twin has no @Published log.")
            return
        }
        let trace = kind.expectedTrace
        expect(log)
            .toEmit([[], trace[0]], within: .zero)
            .thenEmit(Array(Self.steps(from: trace[0], to: trace[1])), within: .seconds(1))
            .thenEmit(Array(Self.steps(from: trace[1], to: trace[2])), within: .seconds(1))
            .thenIgnoreRest()
    }

    /// Every log a loader publishes on its way from `start` to `end`, one entry at a time.
    private static func steps(from start: [String], to end: [String]) -> ArraySlice<[String]> {
        (start.count...end.count).map { Array(end.prefix($0)) }.dropFirst()
    }

    @Test func aValueThatComesLateFailsTheStepAtItsBudgetAndSaysWhenItCame() async {
        await expectFailures([
            """
            thenEmit(["start", "one"], within: .milliseconds(500)) failed: the value (["start", "one"]) did not arrive within \
            500 ticks (by tick 500); it arrived at tick 1000, 500 ticks late.

                expect(Published<Array<String>>.Publisher)
              ✓   .toEmit([[], ["start"]], within: .zero)
              ✗   .thenEmit(["start", "one"], within: .milliseconds(500))

                 tick  received          expected
                    0  subscription
                    0  []                []                toEmit([[], ["start"]], within: .zero)
                    0  ["start"]         ["start"]         toEmit([[], ["start"]], within: .zero)
              →   500  (nothing)         ["start", "one"]  thenEmit(["start", "one"], within: .milliseconds(500))
                 1000  ["start", "one"]
            """
        ]) {
            // A test of a failed step: the loader's later steps are left on the clock on purpose.
            await withVirtualTime(leftovers: .allowed) { @MainActor clock async in
                let loader = Loader(clock: clock)
                loader.start()
                expect(loader.$log)
                    .toEmit([[], ["start"]], within: .zero)
                    .thenEmit(["start", "one"], within: .milliseconds(500))
            }
        }
    }

    @Test func aTaskThatNeverSuspendsIsReportedOnceByTheStepAndLeftRunning() async {
        let spinning =
            "stopped waiting for the test's tasks after running 100,000 jobs at tick 0 with 1 job still "
            + "ready to run: a task that never suspends on the clock and never finishes (a loop of Task.yield()?) "
            + "never lets the test go idle. It is left running; make it sleep on the clock, await something, or "
            + "finish."
        await expectFailures([
            // The step reports the task once and leaves it running; the session cancels it at the end without a
            // second report: one task, one failure.
            "toEmit(1) " + spinning
        ]) {
            let task = await withVirtualTime { _ async in
                let task = Task { while !Task.isCancelled { await Task.yield() } }
                expect(Just(1)).toEmit(1).thenFinish()
                return task
            }
            task.cancel()
            await task.value
        }
    }
}
