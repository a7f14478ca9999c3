import Cadence
import Testing

@Suite struct VirtualClockPendingWorkTests {
    @Test func pendingDueTicksListsLiveWorkEarliestFirstAndARepeatingActionAtItsNextRun() {
        let clock = VirtualClock()
        clock.schedule(after: .ticks(30)) {}
        clock.schedule(after: .ticks(10)) {}
        clock.schedule(after: .ticks(20)) {}.cancel()
        clock.schedule(at: .init(ticks: 5), every: .ticks(7)) {}
        #expect(clock.pendingDueTicks == [5, 10, 30])
        clock.advance(by: .ticks(12))
        #expect(clock.pendingDueTicks == [19, 30])
        clock.end()
        #expect(clock.pendingDueTicks == [])
    }

    @Test func pendingDueTicksIsEmptyForAnIdleClock() {
        #expect(VirtualClock().pendingDueTicks == [])
    }
}
