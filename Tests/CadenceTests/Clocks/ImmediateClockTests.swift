import Cadence
import Testing

@Suite struct ImmediateClockTests {
    @Test func aSleepReturnsAtOnceAndMovesNowToItsDeadline() async throws {
        let clock = ImmediateClock()
        let start = clock.now
        try await clock.sleep(for: .seconds(5))
        #expect(clock.now == start.advanced(by: .seconds(5)))
        try await clock.sleep(until: start.advanced(by: .seconds(1)))
        #expect(clock.now == start.advanced(by: .seconds(5))) // an earlier deadline does not move it back
        #expect(clock.now.offset == .seconds(5))
        #expect(start.duration(to: clock.now) == .seconds(5))
    }

    @Test func aLoopOfSleepsEndsWithTheSumOfThem() async throws {
        let clock = ImmediateClock()
        for _ in 0..<10 { try await clock.sleep(for: .seconds(1)) }
        #expect(clock.now == ImmediateClock.Instant(offset: .seconds(10)))
    }

    @Test func aCancelledTasksSleepThrows() async {
        let clock = ImmediateClock()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.now == ImmediateClock.Instant())
    }

    @Test func aTimerOnItYieldsEveryIntervalAtOnce() async {
        let clock = ImmediateClock()
        var offsets: [Duration] = []
        for await instant in clock.timer(interval: .seconds(2)).prefix(3) {
            offsets.append(instant.offset)
        }
        #expect(offsets == [.seconds(2), .seconds(4), .seconds(6)])
    }

    @Test func aTimerEndsWhenItsTaskIsCancelled() async {
        let clock = ImmediateClock()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var count = 0
            for await _ in clock.timer(interval: .seconds(1)) { count += 1 }
            return count
        }
        #expect(await task.value == 0)
    }
}
