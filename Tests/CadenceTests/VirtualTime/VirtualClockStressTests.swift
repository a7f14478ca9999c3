import Cadence
import Dispatch
import Testing

/// Several threads schedule and cancel while another drives the clock: every action runs exactly once unless it was
/// cancelled (then at most once), follow-ups scheduled by running actions run too, and nothing is left pending.
@Suite struct VirtualClockStressTests {
    @Test func schedulingAndCancellingFromManyThreadsWhileOneAdvances() {
        let (clock, messages) = recordingClock()
        let lanes = 3
        let perLane = 3000
        let runs = LockedBox([Int](repeating: 0, count: lanes * perLane))
        let followUps = LockedBox(0)
        let cancelled = LockedBox(Set<Int>())
        DispatchQueue.concurrentPerform(iterations: lanes + 1) { lane in
            if lane == lanes {
                for _ in 0..<1500 { clock.advance(by: .ticks(1)) }
                return
            }
            let timer = clock.schedule(at: clock.now, every: .ticks(7)) {}
            var mine: [(Int, VirtualClock.ScheduledAction)] = []
            for step in 0..<perLane {
                let id = lane * perLane + step
                let action = clock.schedule(after: .ticks(step % 13)) {
                    runs.mutate { $0[id] += 1 }
                    if id % 10 == 0 {
                        clock.schedule(after: .ticks(1)) { followUps.mutate { $0 += 1 } }
                    }
                }
                mine.append((id, action))
                if step % 3 == 0, let (victim, victimAction) = mine.popLast() {
                    cancelled.mutate { _ = $0.insert(victim) }
                    victimAction.cancel()
                }
            }
            timer.cancel()
        }
        clock.run()
        #expect(clock.pendingCount == 0)
        #expect(messages.value.isEmpty)
        let cancelledIDs = cancelled.value
        let counts = runs.value
        #expect(counts.allSatisfy { $0 <= 1 })
        let missing = counts.indices.filter { counts[$0] != 1 && !cancelledIDs.contains($0) }
        #expect(missing.isEmpty)
        let ranFollowingUp = counts.indices.filter { counts[$0] == 1 && $0 % 10 == 0 }.count
        #expect(followUps.value == ranFollowingUp)
    }
}
