// Internal machinery, reached with @testable, which only debug builds allow.
#if DEBUG && !canImport(Combine)
@testable import CadenceCombine
import Cadence
import Testing

@Suite("TimeoutStateMachine")
struct TimeoutStateMachineTests {
    typealias Machine = TimeoutStateMachine<Int, Never, String>

    private final class Timer: Cancellable {
        func cancel() {}
    }

    private final class Upstream: Subscription {
        func request(_: Subscribers.Demand) {}
        func cancel() {}
    }

    @Test func aTimerThatWasRestartedBeforeItWasStoredIsHandedBackAndItsFiringIgnored() {
        var machine = Machine(downstream: "downstream")
        guard case .start(_, let first) = machine.receive(subscription: Upstream()) else {
            Issue.record("the first subscription must start the timer")
            return
        }
        #expect(first.generation != nil)
        let firstGeneration = first.generation ?? 0
        let restart = machine.receive(.value(1))
        let secondGeneration = restart?.generation ?? 0
        #expect(restart?.generation != nil && secondGeneration != firstGeneration)
        let stale = Timer()
        #expect(machine.timerScheduled(stale, generation: firstGeneration) as? Timer === stale)
        #expect(machine.timerFired(generation: firstGeneration) == nil)
        let current = Timer()
        #expect(machine.timerScheduled(current, generation: secondGeneration) == nil)
        let timedOut = machine.timerFired(generation: secondGeneration)
        #expect(timedOut?.timer as? Timer === current)
        #expect(timedOut?.dropped.count == 1)
        guard case .timedOut(let downstream)? = timedOut?.deliver else {
            Issue.record("a timer that fires in time must deliver the time-out")
            return
        }
        #expect(downstream == "downstream")
        // Anything later is ignored.
        #expect(machine.receive(.value(2)) == nil)
        #expect(machine.timerFired(generation: secondGeneration) == nil)
    }

    @Test func onlyTheFirstRequestRestartsTheTimer() {
        var machine = Machine(downstream: "downstream")
        _ = machine.receive(subscription: Upstream())
        let first = machine.request()
        #expect(first.restart?.generation != nil)
        #expect(first.upstream != nil)
        let second = machine.request()
        #expect(second.restart == nil)
        #expect(second.upstream != nil)
    }

    @Test func aTimerScheduledAfterCancelIsHandedBack() {
        var machine = Machine(downstream: "downstream")
        guard case .start(_, let restart) = machine.receive(subscription: Upstream()) else {
            Issue.record("the first subscription must start the timer")
            return
        }
        let cancelled = machine.cancel()
        #expect(cancelled.upstream != nil)
        #expect(cancelled.released.0 == "downstream")
        let late = Timer()
        #expect(machine.timerScheduled(late, generation: restart.generation ?? 0) as? Timer === late)
    }
}
#endif
