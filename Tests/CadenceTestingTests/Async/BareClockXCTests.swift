import Cadence
import Dispatch
import XCTest

/// A clock made outside a session, as swift-clocks' `TestClock` users write it: `await advance(by:)` first lets every
/// task that is about to sleep on it get there. XCTest runs these one at a time, so no other test's work runs beside
/// them (the clock waits for the whole process to settle, except the jobs queued before it was made).
final class BareClockXCTests: XCTestCase {
    /// The property a `TestClock` user keeps: made when XCTest makes the test case, outside any task.
    let clock = VirtualClock()

    func testAdvanceLetsATaskStartedJustBeforeReachItsSleepEveryTime() async {
        var missed = 0
        for _ in 0..<200 {
            let clock = VirtualClock()
            let finished = Synchronized(false)
            let task = Task {
                try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
                finished.value = true
            }
            await clock.advance(by: .seconds(1))
            await clock.advance()
            if !finished.value { missed += 1 }
            task.cancel()
            _ = await task.result
        }
        XCTAssertEqual(missed, 0)
    }

    func testOneAdvanceWakesATaskThatSleepsFiveTimesInARow() async throws {
        let task = Task { [clock] in
            var count = 0
            for _ in 0..<5 {
                try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
                count += 1
            }
            return count
        }
        await clock.advance(by: .seconds(5))
        XCTAssertEqual(clock.pendingSleepTicks, [])
        task.cancel()
        let count = try? await task.value
        XCTAssertEqual(count, 5)
        XCTAssertEqual(clock.now.ticks, 5000)
    }

    func testATaskOnTheMainActorReachesItsSleepToo() async {
        let log = Synchronized<[String]>([])
        let task = Task { @MainActor [clock] in
            log.update { $0.append("start") }
            try await clock.sleep(for: .milliseconds(300))
            log.update { $0.append("woke") }
        }
        await clock.advance(by: .milliseconds(299))
        XCTAssertEqual(log.value, ["start"])
        await clock.advance(by: .milliseconds(1))
        XCTAssertEqual(log.value, ["start", "woke"])
        _ = await task.result
    }

    func testRunWakesSleepersInDeadlineOrderWhateverOrderTheyBegan() async throws {
        let task = Task { [clock] in
            try await withThrowingTaskGroup(of: Int.self, returning: [Int].self) { group in
                group.addTask {
                    try await clock.sleep(for: .seconds(2))
                    return 2
                }
                group.addTask {
                    try await clock.sleep(for: .seconds(1))
                    return 1
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        await clock.run()
        let values = try await task.value
        XCTAssertEqual(values, [1, 2])
    }

    func testCheckSuspensionSeesATaskAboutToSleep() async throws {
        let task = Task { [clock] in try await clock.sleep(for: .seconds(1)) }
        do {
            try await clock.checkSuspension()
            XCTFail("checkSuspension() threw nothing")
        } catch let error as VirtualClock.SuspensionError {
            XCTAssertEqual(error.description, "1 task is still asleep on the virtual clock at tick 0, until tick 1000.")
        }
        await clock.advance(by: .seconds(1))
        try await clock.checkSuspension()
        try await task.value
    }

    func testATaskThatNeverSuspendsIsReportedWithTheSleepsSeenAndTimeMovesOn() async {
        let messages = Synchronized<[String]>([])
        let clock = VirtualClock(reporter: .init { issue in messages.update { $0.append(issue.message) } })
        let sleeper = Task { try await clock.sleep(for: .seconds(2)) }
        await clock.advance()
        let spinner = Task {
            while !Task.isCancelled { await Task.yield() }
        }
        await clock.advance(by: .seconds(1))
        spinner.cancel()
        await spinner.value
        XCTAssertEqual(clock.now.ticks, 1000)
        XCTAssertEqual(
            messages.value,
            [
                "await VirtualClock.advance(by:) stopped waiting for the tasks to reach their sleeps at tick 0, with 1 task "
                    + "asleep on it until tick 2000: a clock made outside a session waits until no task of the process is "
                    + "ready to run, and after 100,000 jobs ran, work was still running: a task that never suspends (a loop "
                    + "of Task.yield()?), or another test's work running in parallel, keeps the process busy. Time moved on "
                    + "without waiting for the rest. Run the test in withVirtualTime or under the .virtualTime trait, whose "
                    + "clock waits on the test's own tasks only."
            ])
        sleeper.cancel()
        _ = await sleeper.result
    }

    func testAJobBlockedFiveSecondsIsReportedAndTimeMovesOn() async {
        let messages = Synchronized<[String]>([])
        let clock = VirtualClock(reporter: .init { issue in messages.update { $0.append(issue.message) } })
        let gate = DispatchSemaphore(value: 0)
        let blocked = Task { gate.wait() }
        await clock.advance(by: .seconds(1))
        gate.signal()
        await blocked.value
        XCTAssertEqual(clock.now.ticks, 1000)
        XCTAssertEqual(
            messages.value,
            [
                "await VirtualClock.advance(by:) stopped waiting for the tasks to reach their sleeps at tick 0, with no "
                    + "task asleep on it: a clock made outside a session waits until no task of the process is ready to "
                    + "run, and for 5 s of real time no job returned, with 1 job running: a job blocked on a semaphore, a "
                    + "lock or a synchronous wait never lets the process settle. Time moved on without waiting for the "
                    + "rest. Run the test in withVirtualTime or under the .virtualTime trait, whose clock waits on the "
                    + "test's own tasks only."
            ])
    }

    /// A job already running when the clock was made could not be on its way to the clock: another test's long
    /// synchronous body, say. The advance waits for the task started after it, not for that job.
    func testAJobRunningBeforeTheClockWasMadeIsNotWaitedFor() async throws {
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        // Counted (this test case's own clock is alive), and running before `clock` below is made.
        let blocked = Task {
            entered.signal()
            gate.wait()
        }
        XCTAssertTrue(Self.waitForTenSeconds(on: entered), "the blocked task did not start")
        let messages = Synchronized<[String]>([])
        let clock = VirtualClock(reporter: .init { issue in messages.update { $0.append(issue.message) } })
        let woke = Synchronized(false)
        let sleeper = Task {
            try await clock.sleep(until: .init(ticks: 1000))
            woke.value = true
        }
        await clock.advance(by: .seconds(1))
        // Read before the blocked job returns: the sleeper got to its sleep and woke within the advance, which reported
        // nothing (waiting for the blocked job, it would have given up after five seconds and said so).
        let wokeInTheAdvance = woke.value
        gate.signal()
        await blocked.value
        sleeper.cancel()
        _ = await sleeper.result
        XCTAssertTrue(wokeInTheAdvance, "the sleeper did not wake in the advance")
        XCTAssertEqual(clock.now.ticks, 1000)
        XCTAssertEqual(messages.value, [])
    }

    /// Whether `semaphore` is signalled within ten seconds.
    private static func waitForTenSeconds(on semaphore: DispatchSemaphore) -> Bool {
        semaphore.wait(timeout: .now() + 10) == .success
    }
}
