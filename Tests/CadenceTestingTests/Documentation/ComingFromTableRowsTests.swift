// swift-format-ignore-file
// (The samples keep the layout their guide shows: a block of the guide appears here line for line.)
// Every row of Guides/ComingFrom.md's combine-schedulers and swift-clocks tables, compiled and run in Cadence's
// spelling, and a check that the tables have no row without a test here. Change one, change the other.
#if canImport(XCTest)
import CadenceTesting
import Foundation
import Testing
import XCTest

/// The first cell of every row tested here, as the guide writes it.
private let testedRows: [String] = [
    // combine-schedulers
    "`DispatchQueue.test`, `RunLoop.test`, `OperationQueue.test` (`TestSchedulerOf<…>`)",
    "`scheduler.advance(by:)`, `advance(to:)`, `run()`",
    "`await scheduler.advance(by:)`, `await scheduler.run()`",
    "`AnySchedulerOf<DispatchQueue>`, `eraseToAnyScheduler()`",
    "`scheduler.timerPublisher(every:)`",
    "`Publishers.Timer(every:scheduler:)`, `Publishers.Timer<S>`",
    "`try await scheduler.sleep(for:)`, `sleep(until:)`, `scheduler.timer(interval:)`",
    "`DispatchQueue.unimplemented`, `AnySchedulerOf<RunLoop>.unimplemented`",
    "`DispatchQueue.immediate`, `AnySchedulerOf<DispatchQueue>.immediate` (`ImmediateSchedulerOf<DispatchQueue>`)",
    "`UIScheduler.shared`",
    "two repeating timers due at the same instant run in the order they were first scheduled",
    "each `TestScheduler` has its own time",
    "on Linux: through OpenCombine (the `OpenCombineSchedulers` package trait)",
    // swift-clocks
    "`TestClock()`",
    "`await clock.advance(by:)`, `advance(to:)`, `advance()`",
    "`await clock.run()`, `run(timeout:)`",
    "`try await clock.checkSuspension()`, `SuspensionError`",
    "`ImmediateClock()`",
    "`UnimplementedClock(\"name\")`",
    "`clock.timer(interval:)`",
    "`AnyClock(clock)`",
]

@Suite("Guides/ComingFrom.md's tables, row by row")
struct ComingFromTableRowsTests {
    @Test func everyRowOfTheTwoTablesHasATestHere() throws {
        let guide = try String(contentsOf: repositoryFile("Guides/ComingFrom.md"), encoding: .utf8)
        var rows: [String] = []
        var inTable = false
        for line in guide.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "| combine-schedulers | Cadence |" || line == "| swift-clocks | Cadence |" {
                inTable = true
            } else if inTable, line.hasPrefix("| ---") {
                continue
            } else if inTable, line.hasPrefix("| ") {
                rows.append(String(line.dropFirst(2).prefix { $0 != "|" }).trimmingCharacters(in: .whitespaces))
            } else {
                inTable = false
            }
        }
        #expect(rows == testedRows)
    }

    // MARK: combine-schedulers

    @Test func theTestSchedulers() {
        let dispatch: TestSchedulerOf<DispatchQueue> = DispatchQueue.test
        let runLoop: TestSchedulerOf<RunLoop> = RunLoop.test
        let operations: TestSchedulerOf<OperationQueue> = OperationQueue.test
        let ran = LockedRuns()
        dispatch.schedule { ran.add("dispatch") }
        runLoop.schedule { ran.add("runLoop") }
        operations.schedule { ran.add("operations") }
        dispatch.advance()
        runLoop.advance()
        operations.advance()
        #expect(ran.names == ["dispatch", "runLoop", "operations"])
    }

    @Test func theSynchronousDrivers() {
        let scheduler = DispatchQueue.test
        let ran = LockedRuns()
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { ran.add("1 s") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2))) { ran.add("2 s") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(3))) { ran.add("3 s") }
        scheduler.advance(by: .seconds(1))
        #expect(ran.names == ["1 s"])
        scheduler.advance(to: scheduler.now.advanced(by: .seconds(1)))
        #expect(ran.names == ["1 s", "2 s"])
        scheduler.run()
        #expect(ran.names == ["1 s", "2 s", "3 s"])
    }

    @Test(.virtualTime) func theAsynchronousDrivers() async {
        let scheduler = DispatchQueue.test
        let ran = LockedRuns()
        let task = Task {
            try await scheduler.sleep(for: .seconds(1))
            ran.add("woke")
        }
        await scheduler.advance(by: .seconds(1))
        #expect(ran.names == ["woke"])
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(5))) { ran.add("5 s") }
        await scheduler.run()
        #expect(ran.names == ["woke", "5 s"])
        _ = await task.result
    }

    @Test func theErasedScheduler() {
        let scheduler = DispatchQueue.test
        let erased: AnySchedulerOf<DispatchQueue> = scheduler.eraseToAnyScheduler()
        let ran = LockedRuns()
        erased.schedule(after: erased.now.advanced(by: .milliseconds(300))) { ran.add("erased") }
        scheduler.advance(by: .milliseconds(300))
        #expect(ran.names == ["erased"])
    }

    @Test func theTimerPublisherOfAScheduler() {
        let scheduler = DispatchQueue.test
        let timer = scheduler.timerPublisher(every: .seconds(1)).autoconnect()
        expect(timer.map { _ in "tick" }, on: scheduler).toEmit(["tick", "tick"], within: .seconds(2))
    }

    @Test func theTimerPublisherByItsType() {
        let scheduler = DispatchQueue.test
        let timer: SchedulerTimerPublisher<TestSchedulerOf<DispatchQueue>> =
            SchedulerTimerPublisher(every: .seconds(1), scheduler: scheduler)
        expect(timer.autoconnect().map { _ in "tick" }, on: scheduler).toEmit("tick", within: .seconds(1))
    }

    @Test(.virtualTime) func sleepingAndTimersOnAScheduler() async throws {
        let scheduler = DispatchQueue.test
        // The scheduler's time is not Sendable (as in Combine): the tasks hand back milliseconds since the start.
        let start = scheduler.now
        let sleeper = Task {
            try await scheduler.sleep(for: .seconds(1))
            try await scheduler.sleep(until: start.advanced(by: .seconds(3)))
            return scheduler.now.virtualTick
        }
        let ticker = Task {
            var ticks: [Int64] = []
            for await now in scheduler.timer(interval: .seconds(1)).prefix(2) { ticks.append(now.virtualTick) }
            return ticks
        }
        await scheduler.advance(by: .seconds(3))
        #expect(try await sleeper.value == 3000)
        #expect(await ticker.value == [1000, 2000])
    }

    @Test func theUnimplementedSchedulersAsProperties() {
        let failures = recordingFailures {
            let scheduler: UnimplementedSchedulerOf<DispatchQueue> = DispatchQueue.unimplemented
            let erased: AnySchedulerOf<RunLoop> = .unimplemented
            _ = scheduler.now
            _ = erased.now
        }
        #expect(failures.count == 2)
    }

    @Test func theImmediateSchedulers() {
        let immediate: ImmediateSchedulerOf<DispatchQueue> = DispatchQueue.immediate
        let erased: AnySchedulerOf<DispatchQueue> = .immediate
        let ran = LockedRuns()
        immediate.schedule(after: immediate.now.advanced(by: .seconds(10))) { ran.add("immediate") }
        erased.schedule { ran.add("erased") }
        #expect(ran.names == ["immediate", "erased"])
    }

    @Test @MainActor func theMainThreadScheduler() {
        let ran = LockedRuns()
        UIScheduler.shared.schedule { ran.add("at once, on the main thread") }
        #expect(ran.names == ["at once, on the main thread"])
    }

    @Test func repeatingTimersDueAtOneInstantRunInTheOrderFirstScheduled() {
        let scheduler = DispatchQueue.test
        let ran = LockedRuns()
        let two = scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2)), interval: .seconds(2)) {
            ran.add("2")
        }
        let three = scheduler.schedule(after: scheduler.now.advanced(by: .seconds(3)), interval: .seconds(3)) {
            ran.add("3")
        }
        scheduler.advance(by: .seconds(6))
        // At 6 s both are due: the one first scheduled (every 2 s) runs first, as on a serial queue.
        #expect(ran.names == ["2", "3", "2", "2", "3"])
        two.cancel()
        three.cancel()
    }

    @Test func testSchedulersShareTheClockOfASession() {
        let separate = (DispatchQueue.test, DispatchQueue.test)
        separate.0.advance(by: .seconds(1))
        #expect(separate.1.now == .init(virtualTick: 0))
        withVirtualTime { clock in
            let shared = (DispatchQueue.test, DispatchQueue.test)
            shared.0.advance(by: .seconds(1))
            #expect(shared.1.now == .init(virtualTick: 1000))
            #expect(clock.now.ticks == 1000)
        }
    }

    @Test func combineOnLinuxIsCadences() {
        expect(Just(1).map { $0 + 1 }).toEmit(2).thenFinish()
    }
}

/// The swift-clocks rows, under XCTest as swift-clocks' own suite is: a clock made outside a session waits for the
/// whole process, which XCTest's one-at-a-time tests leave to it.
final class ComingFromSwiftClocksRowsTests: XCTestCase {
    let clock = VirtualClock()

    func testTheVirtualClockInPlaceOfTestClock() async throws {
        let task = Task { [clock] in try await clock.sleep(for: .microseconds(1500)) }
        await clock.advance(by: .milliseconds(1))
        XCTAssertEqual(clock.pendingSleepTicks, [2])
        await clock.advance(by: .milliseconds(1))
        try await task.value
    }

    func testAdvance() async {
        let woke = Synchronized<[Int64]>([])
        let task = Task { [clock] in
            for _ in 0..<3 {
                try await clock.sleep(for: .seconds(1))
                woke.update { $0.append(clock.now.ticks) }
            }
        }
        await clock.advance(by: .seconds(1))
        await clock.advance(to: clock.now.advanced(by: .seconds(1)))
        await clock.advance()
        XCTAssertEqual(woke.value, [1000, 2000])
        await clock.advance(by: .seconds(1))
        XCTAssertEqual(woke.value, [1000, 2000, 3000])
        _ = await task.result
    }

    func testRun() async {
        let woke = Synchronized(0)
        let task = Task { [clock] in
            try await clock.sleep(for: .seconds(10))
            woke.value += 1
        }
        await clock.run()
        XCTAssertEqual(woke.value, 1)
        _ = await task.result
        let again = Task { [clock] in try await clock.sleep(for: .seconds(10)) }
        await clock.run(timeout: .seconds(5))
        _ = await again.result
        XCTAssertEqual(clock.now.ticks, 20000)
    }

    func testCheckSuspension() async throws {
        let task = Task { [clock] in try await clock.sleep(for: .seconds(1)) }
        do {
            try await clock.checkSuspension()
            XCTFail("checkSuspension() threw nothing")
        } catch let error as VirtualClock.SuspensionError {
            XCTAssertEqual(error.deadlines, [1000])
        }
        await clock.advance(by: .seconds(1))
        try await clock.checkSuspension()
        try await task.value
    }

    func testImmediateClock() async throws {
        let clock = ImmediateClock()
        let start = clock.now
        try await clock.sleep(for: .seconds(60))
        XCTAssertEqual(start.duration(to: clock.now), .seconds(60))
    }

    func testUnimplementedClock() async {
        let failures = await recordingFailures {
            let clock = UnimplementedClock("retry")
            try? await clock.sleep(for: .seconds(1))
        }
        XCTAssertEqual(failures.count, 1)
    }

    func testTimerOnAClock() async {
        let task = Task { [clock] in
            var ticks: [Int64] = []
            for await now in clock.timer(interval: .seconds(1)).prefix(3) { ticks.append(now.ticks) }
            return ticks
        }
        await clock.advance(by: .seconds(3))
        let ticks = await task.value
        XCTAssertEqual(ticks, [1000, 2000, 3000])
    }

    func testAnyClockIsSwiftsExistential() async throws {
        let erased: any Clock<Duration> = clock
        let task = Task { try await erased.sleep(for: .seconds(1)) }
        await clock.advance(by: .seconds(1))
        try await task.value
    }
}

/// Names of the actions that ran, in order, from any thread.
private final class LockedRuns: @unchecked Sendable {
    // `lock` guards `stored`.
    private let lock = NSLock()
    private var stored: [String] = []

    func add(_ name: String) {
        lock.lock()
        stored.append(name)
        lock.unlock()
    }

    var names: [String] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
#endif
