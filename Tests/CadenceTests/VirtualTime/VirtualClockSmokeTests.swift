import Cadence
import Testing

@Suite struct VirtualClockSmokeTests {
    @Test func sameTickWorkRunsFirstInFirstOutAndTimeMovesToEachDueTick() {
        let clock = VirtualClock()
        let log = LockedBox<[String]>([])
        clock.schedule(after: .ticks(5)) { log.append("b@\(clock.now.ticks)") }
        clock.schedule(after: .ticks(2)) { log.append("a@\(clock.now.ticks)") }
        clock.schedule(after: .ticks(5)) { log.append("c@\(clock.now.ticks)") }
        clock.advance(by: .ticks(4))
        #expect(log.value == ["a@2"])
        clock.advance(by: .ticks(1))
        #expect(log.value == ["a@2", "b@5", "c@5"])
        #expect(clock.now.ticks == 5)
        #expect(clock.pendingCount == 0)
    }

    @Test func testSchedulersBoundToOneClockAdvanceTogether() {
        let clock = VirtualClock()
        let log = LockedBox<[String]>([])
        VirtualClock.$current.withValue(clock) {
            let first = VirtualScheduler()
            let second = VirtualScheduler()
            first.schedule(after: first.now.advanced(by: .ticks(3))) { log.append("first") }
            second.schedule(after: second.now.advanced(by: .ticks(2))) { log.append("second") }
            first.advance(by: .ticks(3))
        }
        #expect(log.value == ["second", "first"])
        #expect(clock.now.ticks == 3)
    }
}
