import Cadence
import Testing

/// Sleepers are started with `Task.immediate`/`addImmediateTask`, which run them synchronously up to their first
/// suspension: once the call returns, the sleeper is on the clock's timeline, with no yielding or polling.
// `Task.immediate` (Swift 6.2) starts each sleeper synchronously; on Apple platforms the tests need the 26 releases
// (Swift Testing takes `@available` on tests, not on suites).
@Suite struct VirtualClockSleepTests {
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func aSleeperWakesOnlyWhenTheClockReachesItsDeadline() async throws {
        let clock = VirtualClock()
        let sleeper = Task.immediate { try await clock.sleep(until: .init(ticks: 10)) }
        #expect(clock.pendingCount == 1)
        await clock.advance(by: .ticks(9))
        #expect(clock.pendingCount == 1)
        await clock.advance(by: .ticks(1))
        #expect(clock.pendingCount == 0)
        try await sleeper.value
        #expect(clock.now.ticks == 10)
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func sleepersWakeInDeadlineOrderThenFirstAsleepFirst() async throws {
        let clock = VirtualClock()
        let seen = LockedBox<[String]>([])
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addImmediateTask { try await clock.sleep(until: .init(ticks: 30)) }
            group.addImmediateTask { try await clock.sleep(until: .init(ticks: 10)) }
            // What each wake-up left pending shows the order the clock resumed the sleepers in.
            clock.schedule(at: .init(ticks: 10)) { seen.append("10 after first: \(clock.pendingCount) pending") }
            group.addImmediateTask { try await clock.sleep(until: .init(ticks: 10)) }
            group.addImmediateTask { try await clock.sleep(until: .init(ticks: 20)) }
            clock.schedule(at: .init(ticks: 20)) { seen.append("20: \(clock.pendingCount) pending") }
            #expect(clock.pendingCount == 6)
            await clock.advance(by: .ticks(30))
            #expect(clock.pendingCount == 0)
            try await group.waitForAll()
        }
        #expect(seen.value == ["10 after first: 4 pending", "20: 1 pending"])
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func advancingStepByStepResumesOneDeadlineAtATime() async throws {
        let clock = VirtualClock()
        let late = Task.immediate { try await clock.sleep(until: .init(ticks: 30)) }
        let early = Task.immediate { () async throws -> Int64 in
            try await clock.sleep(until: .init(ticks: 10))
            return clock.now.ticks
        }
        await clock.advance(to: .init(ticks: 10))
        #expect(try await early.value >= 10)
        #expect(clock.pendingCount == 1)
        await clock.advance(to: .init(ticks: 29))
        #expect(clock.pendingCount == 1)
        await clock.advance(to: .init(ticks: 30))
        try await late.value
        #expect(clock.pendingCount == 0)
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func sleepForAndTaskSleepUseTheClock() async throws {
        let clock = VirtualClock(now: .init(ticks: 100))
        let viaTask = Task.immediate { try await Task.sleep(for: .seconds(2), clock: clock) }
        let viaClock = Task.immediate { try await clock.sleep(for: .milliseconds(1500)) }
        let viaUntil = Task.immediate { try await Task.sleep(until: .init(ticks: 2100), clock: clock) }
        #expect(clock.pendingCount == 3)
        await clock.advance(by: .milliseconds(1500))
        try await viaClock.value
        #expect(clock.pendingCount == 2)
        await clock.advance(by: .milliseconds(499))
        #expect(clock.pendingCount == 2)
        await clock.advance(by: .milliseconds(1))
        try await viaTask.value
        try await viaUntil.value
        #expect(clock.pendingCount == 0)
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func aDeadlineAlreadyReachedReturnsAtOnce() async throws {
        let (clock, messages) = recordingClock(at: 5)
        try await clock.sleep(until: .init(ticks: 5))
        try await clock.sleep(until: .init(ticks: -3))
        try await clock.sleep(for: .zero)
        try await clock.sleep(for: .ticks(-1))
        #expect(clock.pendingCount == 0)
        #expect(clock.now.ticks == 5)
        #expect(messages.value.isEmpty)
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func aTaskCancelledBeforeSleepingThrowsAtOnce() async {
        let clock = VirtualClock()
        let sleeper = Task.immediate {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(until: .init(ticks: 10))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.pendingCount == 0)
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func cancellingASleepingTaskResumesItWithCancellationErrorWithoutAdvancing() async {
        let clock = VirtualClock()
        let sleeper = Task.immediate { try await clock.sleep(until: .init(ticks: 10)) }
        let other = Task.immediate { try await clock.sleep(until: .init(ticks: 10)) }
        #expect(clock.pendingCount == 2)
        sleeper.cancel()
        #expect(clock.pendingCount == 1) // its wake-up left the timeline in the cancellation itself
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.now.ticks == 0)
        await clock.advance(by: .ticks(10))
        await #expect(throws: Never.self) { try await other.value }
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func cancellingAfterTheWakeUpChangesNothing() async throws {
        let clock = VirtualClock()
        let sleeper = Task.immediate { try await clock.sleep(until: .init(ticks: 1)) }
        await clock.advance(by: .ticks(1))
        sleeper.cancel()
        try await sleeper.value
        #expect(clock.pendingCount == 0)
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func endingTheClockResumesEverySleeperWithCancellationError() async {
        let (clock, messages) = recordingClock()
        let first = Task.immediate { try await clock.sleep(until: .init(ticks: 10)) }
        let second = Task.immediate { try await clock.sleep(until: .init(ticks: 20)) }
        #expect(clock.end() == 2)
        await #expect(throws: CancellationError.self) { try await first.value }
        await #expect(throws: CancellationError.self) { try await second.value }
        await #expect(throws: CancellationError.self) { try await clock.sleep(until: .init(ticks: 30)) }
        #expect(
            messages.value == [
                "VirtualClock.sleep(until:tolerance:) was called after the clock's test ended (at tick 0); the sleep "
                    + "ends at once with CancellationError."
            ])
        #expect(clock.pendingCount == 0)
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func aNegativeToleranceIsReportedAndIgnored() async throws {
        let (clock, messages) = recordingClock()
        let sleeper = Task.immediate { try await clock.sleep(until: .init(ticks: 2), tolerance: .ticks(-1)) }
        await clock.advance(by: .ticks(2))
        try await sleeper.value
        #expect(
            messages.value == [
                "VirtualClock.sleep(until:tolerance:) was given a negative tolerance (-0.001 seconds); a tolerance must "
                    + "not be negative, and virtual time ignores it."
            ])
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func tenThousandSleepersAreAllResumedByOneAdvance() async throws {
        let clock = VirtualClock()
        let count = 10_000
        let woken = try await withThrowingTaskGroup(of: Int64.self) { group in
            for index in 0..<count {
                group.addImmediateTask {
                    try await clock.sleep(until: .init(ticks: Int64(index % 100 + 1)))
                    return clock.now.ticks
                }
                // Not one job of seconds under ThreadSanitizer: the clock of another test running beside this one
                // waits for every job queued since it was made, and gives up on five seconds without one returning.
                if index % 1_000 == 999 { await Task.yield() }
            }
            #expect(clock.pendingCount == count)
            await clock.advance(by: .ticks(100))
            #expect(clock.pendingCount == 0)
            var woken = 0
            for try await tick in group {
                #expect(tick >= 1)
                woken += 1
            }
            return woken
        }
        #expect(woken == count)
    }
}
