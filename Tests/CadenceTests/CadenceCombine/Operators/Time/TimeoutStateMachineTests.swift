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

    @Test func aTimerScheduledAfterCancelIsHandedBack() throws {
        var machine = Machine(downstream: "downstream")
        guard case .start(_, let restart) = machine.receive(subscription: Upstream()) else {
            Issue.record("the first subscription must start the timer")
            return
        }
        let cancellation = machine.cancel()
        let cancelled = try #require(cancellation)
        #expect(cancelled.upstream != nil)
        #expect(cancelled.released.0 == "downstream")
        let late = Timer()
        #expect(machine.timerScheduled(late, generation: restart.generation ?? 0) as? Timer === late)
    }

    /// As in Combine: a cancel before the upstream's subscription arrived is ignored, and that subscription still
    /// goes to the downstream.
    @Test func aCancelBeforeTheSubscriptionDoesNothing() {
        var machine = Machine(downstream: "downstream")
        #expect(machine.cancel() == nil)
        guard case .start(let downstream, _) = machine.receive(subscription: Upstream()) else {
            Issue.record("the subscription must still start the timer")
            return
        }
        #expect(downstream == "downstream")
    }

    /// As in Combine: while the upstream's completion waits for its delivery, requests still reach the upstream (and
    /// do not start the timer again), and a cancel cancels it; once delivered, the upstream is let go of.
    @Test func theUpstreamIsKeptUntilItsCompletionIsDelivered() throws {
        var machine = Machine(downstream: "downstream")
        let upstream = Upstream()
        _ = machine.receive(subscription: upstream)
        #expect(machine.receive(.completion(.finished)) != nil)
        #expect(machine.receive(.value(1)) == nil)
        let request = machine.request()
        #expect(request.restart == nil)
        #expect(request.upstream as? Upstream === upstream)
        var copy = machine
        let cancellation = copy.cancel()
        let cancelled = try #require(cancellation)
        #expect(cancelled.upstream as? Upstream === upstream)
        guard case .completion("downstream", .finished) = machine.deliveryActionRan() else {
            Issue.record("the completion must be delivered")
            return
        }
        #expect(machine.request().upstream == nil)
        let cancelledAfterDelivery = machine.cancel()
        #expect(try #require(cancelledAfterDelivery).upstream == nil)
    }
}
#endif
