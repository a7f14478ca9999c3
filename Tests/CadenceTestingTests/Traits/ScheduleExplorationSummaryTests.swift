import Cadence
import Dispatch
import Testing

@testable import CadenceTesting

/// A passing exploration notes what it ran when summaries are on (`CADENCE_EXPLORATION_SUMMARY=1`): how many runs, how
/// many distinct schedules, and whether that was every schedule.
@Suite struct ScheduleExplorationSummaryTests {
    /// Two queues, one action each at tick 10: two schedules.
    private static func twoQueues(_ clock: VirtualClock) {
        let first = DispatchQueue.test
        let second = DispatchQueue.test
        first.schedule(after: first.now.advanced(by: .milliseconds(10))) {}
        second.schedule(after: second.now.advanced(by: .milliseconds(10))) {}
        clock.advance(by: .milliseconds(10))
    }

    @Test func aWalkedSpaceIsSaidToBeEverySchedule() {
        let line = #line + 3
        let notes = ScheduleExploration.$summarizes.withValue(true) {
            recordingFailures {
                withVirtualTime(explore: 20) { clock in Self.twoQueues(clock) }
            }
        }
        #expect(notes.map(\.location.line) == [line])
        #expect(
            notes.map(\.message) == [
                "withVirtualTime(explore: 20) passed 2 runs, in 2 distinct schedules: every schedule of the "
                    + "same-instant work this test meets."
            ])
    }

    @Test func aSampledSpaceIsSaidToBeSampled() {
        let notes = ScheduleExploration.$summarizes.withValue(true) {
            recordingFailures {
                withVirtualTime(explore: 3) { clock in
                    let queues = (0..<4).map { _ in DispatchQueue.test }
                    for queue in queues { queue.schedule(after: queue.now.advanced(by: .milliseconds(10))) {} }
                    clock.advance(by: .milliseconds(10))
                }
            }
        }
        #expect(notes.count == 1)
        #expect(notes.first?.message.hasPrefix("withVirtualTime(explore: 3) passed 3 runs, in ") == true)
        #expect(notes.first?.message.hasSuffix(" distinct schedules, sampled from more.") == true)
    }

    @Test func aBodyWithNoChoiceIsSaidToHaveOneSchedule() {
        let notes = ScheduleExploration.$summarizes.withValue(true) {
            recordingFailures {
                withVirtualTime(explore: 20) { clock in clock.advance(by: .milliseconds(10)) }
            }
        }
        #expect(
            notes.map(\.message) == [
                "withVirtualTime(explore: 20) passed 1 run, in 1 distinct schedule: the body met no same-instant "
                    + "choice, so first-in first-out order is its only schedule."
            ])
    }

    @Test func summariesAreOffUnlessAsked() {
        let notes = ScheduleExploration.$summarizes.withValue(false) {
            recordingFailures {
                withVirtualTime(explore: 20) { clock in Self.twoQueues(clock) }
            }
        }
        #expect(notes.isEmpty)
    }
}
