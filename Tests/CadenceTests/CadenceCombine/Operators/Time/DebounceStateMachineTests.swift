#if DEBUG && !canImport(Combine)
@testable import CadenceCombine
import Cadence
import Testing

@Suite("DebounceStateMachine")
struct DebounceStateMachineTests {
    typealias Machine = DebounceStateMachine<TestSubscriber<Int, TestError>>

    /// A cancellable that counts how often it was cancelled.
    final class Timer: Cancellable, @unchecked Sendable { // `cancels` is only touched by the test's thread
        var cancels = 0
        func cancel() { cancels += 1 }
    }

    static func subscribed(demand: Subscribers.Demand = .unlimited) -> Machine {
        var machine = Machine(downstream: TestSubscriber())
        let source = DrivenPublisher<Int, TestError>()
        source.subscribe(TestSubscriber<Int, TestError>())
        _ = machine.receive(subscription: source.subscription)
        machine.add(demand: demand)
        return machine
    }

    @Test func eachValueStartsANewGenerationAndHandsBackTheTimerItReplaces() {
        var machine = Self.subscribed()
        guard case .scheduleTimer(let first, let stale, let replaced) = machine.receive(1) else {
            Issue.record("expected a timer to be scheduled")
            return
        }
        #expect(first == 1 && stale == nil && replaced == nil)
        let timer = Timer()
        #expect(machine.timerScheduled(timer, generation: first) == nil)
        guard case .scheduleTimer(let second, let replacedTimer, let replacedValue) = machine.receive(2) else {
            Issue.record("expected a timer to be scheduled")
            return
        }
        #expect(second == 2)
        #expect(replacedTimer as? Timer === timer)
        #expect(replacedValue == 1)
    }

    @Test func aTimerOfAnOlderGenerationFiresForNothing() {
        var machine = Self.subscribed()
        _ = machine.receive(1)
        _ = machine.receive(2)
        let firing = machine.timerFired(generation: 1)
        #expect(firing.delivery == nil && firing.timer == nil && firing.dropped == nil)
        #expect(machine.pendingValue == 2)
        #expect(machine.timerFired(generation: 2).delivery?.value == 2)
        #expect(machine.pendingValue == nil)
    }

    @Test func aTimerHandedBackAfterItFiredIsReturnedForCancelling() {
        var machine = Self.subscribed()
        _ = machine.receive(1)
        // The scheduler ran the timer before `schedule` returned (a synchronous scheduler, or another thread).
        #expect(machine.timerFired(generation: 1).delivery?.value == 1)
        let late = Timer()
        #expect(machine.timerScheduled(late, generation: 1) as? Timer === late)
    }

    @Test func aDueValueWithoutDemandIsDroppedAndItsTimerCancelled() {
        var machine = Self.subscribed(demand: .none)
        _ = machine.receive(1)
        let timer = Timer()
        _ = machine.timerScheduled(timer, generation: 1)
        let firing = machine.timerFired(generation: 1)
        #expect(firing.delivery == nil)
        #expect(firing.dropped == 1)
        #expect(firing.timer as? Timer === timer)
    }

    @Test func completionDropsThePendingValueAndCancelDropsTheCompletion() {
        var machine = Self.subscribed()
        _ = machine.receive(1)
        let timer = Timer()
        _ = machine.timerScheduled(timer, generation: 1)
        guard case .scheduleCompletion(let stale, let dropped) = machine.receive(completion: .finished) else {
            Issue.record("expected the completion to be scheduled")
            return
        }
        #expect(stale as? Timer === timer)
        #expect(dropped == 1)
        #expect(machine.timerFired(generation: 1).delivery == nil)
        let cancellation = machine.cancel()
        #expect(cancellation.upstream == nil)
        #expect(machine.completionDue() == nil)
        #expect(machine.downstream == nil)
    }
}
#endif
