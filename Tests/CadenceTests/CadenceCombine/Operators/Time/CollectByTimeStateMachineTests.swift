// Internal machinery, reached with @testable, which only debug builds allow.
#if DEBUG && !canImport(Combine)
@testable import CadenceCombine
import Cadence
import Testing

/// The pure transitions of `collect(_:options:)`, without a scheduler: what each event asks the storage to do.
@Suite("CollectByTimeStateMachine")
struct CollectByTimeStateMachineTests {
    private typealias Machine = CollectByTimeStateMachine<Int, TestSubscriber<[Int], TestError>>

    private final class CountingCancellable: Cancellable {
        var cancelled = 0
        func cancel() { cancelled += 1 }
    }

    private static func activeMachine(
        count: Int?
    ) -> (machine: Machine, generation: UInt64, upstream: DrivenPublisher<Int, TestError>) {
        let upstream = DrivenPublisher<Int, TestError>()
        upstream.subscribe(TestSubscriber<Int, TestError>(initialDemand: .none))
        var machine = Machine(count: count, downstream: TestSubscriber(initialDemand: .none))
        guard case .start(let generation, _) = machine.subscriptionReceived(upstream.subscription) else {
            Issue.record("the first subscription should start the machine")
            return (machine, 0, upstream)
        }
        return (machine, generation, upstream)
    }

    @Test func aStaleTimerIsHandedBackAndItsTicksAreIgnored() {
        let setup = Self.activeMachine(count: 2)
        var machine = setup.machine
        let generation = setup.generation
        let first = CountingCancellable()
        let previousTimer = machine.timerStarted(first, generation: generation)
        #expect(previousTimer == nil)
        _ = machine.requested(.max(1))
        _ = machine.valueReceived(1)
        let action = machine.valueReceived(2) // the count ends the window and restarts the timer
        #expect(action.restart?.cancel as? CountingCancellable === first)
        let restartGeneration = action.restart?.generation ?? 0
        #expect(restartGeneration != generation)
        #expect(action.scheduleDrain)
        // A tick of the old timer that was already under way does nothing.
        _ = machine.valueReceived(3)
        let staleTick = machine.timerFired(generation: generation)
        #expect(staleTick == false)
        #expect(machine.window == [3])
        // A timer started for an old generation is handed back to be cancelled.
        let late = CountingCancellable()
        let handedBack = machine.timerStarted(late, generation: generation)
        #expect(handedBack as? CountingCancellable === late)
    }

    @Test func aTickClosesTheWindowOnlyWhenDemandIsLeftForIt() {
        let setup = Self.activeMachine(count: nil)
        var machine = setup.machine
        let generation = setup.generation
        let answer = machine.valueReceived(1).demand
        #expect(answer == .max(1))
        let tickWithoutDemand = machine.timerFired(generation: generation)
        #expect(tickWithoutDemand == false)
        #expect(machine.window == [1])
        _ = machine.requested(.max(1))
        let tickWithDemand = machine.timerFired(generation: generation)
        #expect(tickWithDemand)
        #expect(machine.window == [])
        #expect(machine.ready.count == 1)
    }

    @Test func aDrainDeliversWhileThereIsDemandThenAsksUpstreamForWhatWasAnswered() {
        let setup = Self.activeMachine(count: 2)
        var machine = setup.machine
        let upstream = setup.upstream
        _ = machine.requested(.max(1))
        for value in 1...4 { _ = machine.valueReceived(value) }
        let firstEmitter = machine.drainStarted(scheduled: true)
        #expect(firstEmitter)
        let secondEmitter = machine.drainStarted(scheduled: true)
        #expect(secondEmitter == false) // one emitter at a time
        guard case .deliver(let group, _) = machine.nextDrainStep() else {
            Issue.record("expected a group")
            return
        }
        #expect(group == [1, 2])
        machine.delivered(answer: .max(1))
        guard case .deliver(let second, _) = machine.nextDrainStep() else {
            Issue.record("expected a second group")
            return
        }
        #expect(second == [3, 4])
        guard case .idle(let subscription, let demand) = machine.nextDrainStep() else {
            Issue.record("expected the drain to stop")
            return
        }
        #expect(subscription as? DrivenPublisher<Int, TestError>.TestSubscription === upstream.subscription)
        #expect(demand == .max(2))
    }

    @Test func cancelHandsBackEverythingToCancelAndRelease() {
        let setup = Self.activeMachine(count: 3)
        var machine = setup.machine
        let (generation, upstream) = (setup.generation, setup.upstream)
        let timer = CountingCancellable()
        _ = machine.timerStarted(timer, generation: generation)
        _ = machine.valueReceived(1)
        let action = machine.cancelled()
        #expect(action.upstream as? DrivenPublisher<Int, TestError>.TestSubscription === upstream.subscription)
        #expect(action.timer as? CountingCancellable === timer)
        #expect(action.released.1 == [1])
        #expect(machine.downstream == nil)
        let answerAfterCancel = machine.valueReceived(2).demand
        #expect(answerAfterCancel == .none)
        #expect(machine.window == [])
        let tickAfterCancel = machine.timerFired(generation: generation)
        #expect(tickAfterCancel == false)
        let secondCancel = machine.cancelled().upstream
        #expect(secondCancel == nil)
    }
}
#endif
