import CadenceTesting
import XCTest

/// The scenario and its twins under XCTest: a nonisolated async test method (a `@MainActor` one breaks test
/// discovery on Linux) whose body hops to the main actor through the `@MainActor` driver.
final class AsyncVirtualTimeXCTests: XCTestCase {
    func testTheScenarioAndItsTwinsRunStepByStep() async {
        for kind in ScenarioKind.allCases {
            let trace = await withVirtualTime { clock in await driveScenario(kind, on: clock) }
            XCTAssertEqual(trace, kind.expectedTrace, "\(kind)")
        }
    }

    func testTheScenarioAndItsTwinsGiveTheSameTraceTenThousandTimes() async {
        var traces: [ScenarioKind: Set<[[String]]>] = [:]
        for _ in 0..<10_000 {
            for kind in ScenarioKind.allCases {
                let trace = await withVirtualTime { clock in await driveScenario(kind, on: clock) }
                traces[kind, default: []].insert(trace)
            }
        }
        for kind in ScenarioKind.allCases {
            XCTAssertEqual(traces[kind], [kind.expectedTrace], "\(kind)")
        }
    }

    func testTheTwinsSleepingOnTheContinuousClockRunOnVirtualTimeWithVirtualSystemClocks() async throws {
        try XCTSkipUnless(VirtualClock.canVirtualizeSystemSleeps, "needs Swift 6.3's scheduling executors")
        for kind in SystemClockSleepTests.twins {
            let trace = await withVirtualTime(systemClocks: .virtual) { clock in
                await driveScenario(kind, on: clock, sleepingOn: ContinuousClock())
            }
            XCTAssert(kind.isExpectedOnASystemClock(trace), "\(kind): \(trace)")
        }
    }

    func testTheMainActorViewModelIsDrivenFromTheTest() async {
        await withVirtualTime { clock in
            await MainActor.run {
                let loader = Loader(clock: clock)
                loader.start()
                return loader
            }
            .driven(by: clock)
        }
    }

    func testTheStepsLetTheTasksRunInsideMainActorRun() async {
        let failures = await recordingFailures {
            await withVirtualTime { clock in
                await MainActor.run {
                    let loader = Loader(clock: clock)
                    loader.start()
                    expect(loader.$log)
                        .toEmit([[], ["start"]], within: .zero)
                        .thenEmit(["start", "one"], within: .seconds(1))
                        .thenEmit(["start", "one", "two"], within: .seconds(1))
                }
                XCTAssertEqual(clock.now.ticks, 2000)
            }
        }
        XCTAssertEqual(failures.map(\.message), [])
    }
}

extension Loader {
    /// Drives the scenario from a nonisolated test, checking the log after each step.
    nonisolated func driven(by clock: VirtualClock) async {
        await clock.advance(by: .zero)
        let afterStart = await log
        XCTAssertEqual(afterStart, ["start"])
        await clock.advance(by: .seconds(1))
        let afterOne = await log
        XCTAssertEqual(afterOne, ["start", "one"])
        await clock.run()
        let afterRun = await log
        XCTAssertEqual(afterRun, ["start", "one", "two"])
    }
}
