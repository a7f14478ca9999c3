import CadenceTesting
import Testing

@Suite struct UnimplementedClockTests {
    private static let noSleep = "; an unimplemented clock does not sleep: the sleep threw CancellationError."

    @Test func aSleepReportsAFailureAndThrowsCancellationError() async {
        await expectFailures([
            "UnimplementedClock(\"retry\") was asked to sleep for 1.0 seconds" + Self.noSleep,
            "UnimplementedClock(\"retry\") was asked to sleep until 2.0 seconds from its start" + Self.noSleep,
        ]) {
            let clock = UnimplementedClock("retry")
            await #expect(throws: CancellationError.self) { try await clock.sleep(for: .seconds(1)) }
            await #expect(throws: CancellationError.self) {
                try await clock.sleep(until: .init(offset: .seconds(2)))
            }
        }
    }

    @Test func readingItsTimeIsAFailureToo() {
        expectFailures([
            "UnimplementedClock() was asked for its now; an unimplemented clock must not be used at all.",
            "UnimplementedClock() was asked for its minimumResolution; an unimplemented clock must not be used at all.",
        ]) {
            let clock = UnimplementedClock()
            #expect(clock.now == .init())
            #expect(clock.minimumResolution == .zero)
        }
    }

    @Test func aFailureIsReportedAtTheLineThatMadeTheClock() {
        let line = #line + 2
        let failures = recordingFailures {
            let clock = UnimplementedClock()
            _ = clock.now
        }
        #expect(failures.map(\.location.line) == [line])
    }
}

@Suite struct VirtualClockSuspensionTests {
    @Test func checkSuspensionThrowsWhileATaskSleepsOnTheClockAndNotAfter() async throws {
        try await withVirtualTime { clock in
            let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
            await #expect(throws: VirtualClock.SuspensionError(now: 0, deadlines: [1000])) {
                try await clock.checkSuspension()
            }
            await clock.advance(by: .seconds(1))
            try await sleeper.value
            try await clock.checkSuspension()
        }
    }

    @Test func aCancelledSleepIsNoLongerCounted() async throws {
        try await withVirtualTime { clock in
            let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
            await clock.advance(by: .zero)
            sleeper.cancel()
            try await clock.checkSuspension()
            _ = await sleeper.result
        }
    }

    @Test func theErrorSaysHowManySleepAndUntilWhen() {
        #expect(
            "\(VirtualClock.SuspensionError(now: 5, deadlines: [1000]))"
                == "1 task is still asleep on the virtual clock at tick 5, until tick 1000.")
        #expect(
            "\(VirtualClock.SuspensionError(now: 0, deadlines: [1000, 2000, 3000]))"
                == "3 tasks are still asleep on the virtual clock at tick 0, until ticks 1000, 2000 and 3000.")
    }
}
