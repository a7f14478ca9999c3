import CadenceTesting
import Foundation
import Testing

/// `sleep(for:)`, `sleep(until:)` and `timer(interval:)` on any scheduler, driven by a test scheduler in a session.
@Suite struct SchedulerSleepTests {
    @Test func aSleepEndsWhenAnAdvanceReachesItsDeadline() async throws {
        try await withVirtualTime { clock in
            let scheduler = DispatchQueue.test
            let woke = Synchronized<[Int64]>([])
            let sleeper = Task {
                try await scheduler.sleep(for: .seconds(1))
                woke.withLock { $0.append(clock.now.ticks) }
            }
            await scheduler.advance(by: .milliseconds(999))
            #expect(woke.withLock { $0 }.isEmpty)
            await scheduler.advance(by: .milliseconds(1))
            try await sleeper.value
            #expect(woke.withLock { $0 } == [1000])
        }
    }

    @Test func sleepUntilADeadlineOfTheSchedulersTime() async throws {
        try await withVirtualTime { clock in
            let scheduler = DispatchQueue.test
            let sleeper = Task { try await scheduler.sleep(until: scheduler.now.advanced(by: .seconds(2))) }
            await scheduler.advance(by: .seconds(2))
            try await sleeper.value
            #expect(clock.now.ticks == 2000)
        }
    }

    @Test func cancellingTheSleeperEndsItAtOnceAndTakesTheActionOffTheScheduler() async {
        await withVirtualTime { clock in
            let scheduler = DispatchQueue.test
            let sleeper = Task { try await scheduler.sleep(for: .seconds(60)) }
            await clock.advance(by: .zero)
            #expect(clock.pendingCount == 1)
            sleeper.cancel()
            await #expect(throws: CancellationError.self) { try await sleeper.value }
            #expect(clock.pendingCount == 0)
            #expect(clock.now.ticks == 0)
        }
    }

    @Test func aTaskCancelledBeforeItSleepsThrowsAtOnce() async {
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await DispatchQueue.test.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    @Test func onAnImmediateSchedulerASleepEndsAtOnce() async throws {
        try await DispatchQueue.immediate.sleep(for: .seconds(3600))
        try await AnySchedulerOf<RunLoop>.immediate.sleep(until: RunLoop.immediate.now.advanced(by: .seconds(1)))
    }

    @Test func aTimerTicksOncePerIntervalOfTheSchedulersTime() async {
        await withVirtualTime { clock in
            let scheduler = DispatchQueue.test
            let ticks = Task {
                var seen: [Int64] = []
                for await now in scheduler.timer(interval: .seconds(1)).prefix(3) {
                    seen.append(now.virtualTick)
                }
                return seen
            }
            await scheduler.advance(by: .seconds(3))
            #expect(await ticks.value == [1000, 2000, 3000])
            #expect(clock.pendingCount == 0) // the timer's action went with the iteration
        }
    }

    @Test func aTimerWhoseIterationEndsCancelsItsAction() async {
        await withVirtualTime { clock in
            let scheduler = DispatchQueue.test
            let iteration = Task {
                for await _ in scheduler.timer(interval: .seconds(1)) {}
            }
            await scheduler.advance(by: .seconds(2))
            #expect(clock.pendingCount == 1)
            iteration.cancel()
            await iteration.value
            #expect(clock.pendingCount == 0)
        }
    }
}
