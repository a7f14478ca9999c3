#if DEBUG
@testable import CadenceTesting
import Testing

/// Work scheduled after the end-of-test drain found the clock idle — as a task the body started and did not await
/// does when it wakes and sleeps again on another thread — is reported as such, not as work the horizon cut off.
@Suite struct VirtualTimeStragglerTests {
    /// Schedules `action` on `clock` at `tick` once the scope runs its late checks: after the drain, as a straggling
    /// task would.
    private func scheduleAfterTheDrain(on clock: VirtualClock, at tick: Int64) {
        _ = ExpectationScope.current?.register {
            clock.schedule(at: VirtualClock.Instant(ticks: tick)) {}
        }
    }

    @Test func workScheduledAfterTheDrainIsANoteThatSaysSo() {
        expectFailures([
            "1 scheduled action, due at tick 1000, was scheduled after the virtual clock had been drained — by a "
                + "task the body started and did not await? Await or cancel the tasks the body starts before it "
                + "returns."
        ]) {
            // A test of the note: with leftovers allowed, work scheduled after the drain fails nothing.
            withVirtualTime(leftovers: .allowed) { clock in
                scheduleAfterTheDrain(on: clock, at: 1000)
            }
        }
    }

    @Test func byDefaultItIsAFailure() {
        expectFailures([
            "2 scheduled actions, due at ticks 5 and 7, were scheduled after the virtual clock had been drained — by "
                + "a task the body started and did not await? Await or cancel the tasks the body starts before it "
                + "returns."
        ]) {
            withVirtualTime { clock in
                scheduleAfterTheDrain(on: clock, at: 5)
                scheduleAfterTheDrain(on: clock, at: 7)
            }
        }
    }
}
#endif
