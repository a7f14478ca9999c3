// Internal machinery, reached with @testable, which only debug builds allow.
#if DEBUG && !canImport(Combine)
@testable import CadenceCombine
import Cadence
import Testing

@Suite("ReceiveOnStateMachine")
struct ReceiveOnStateMachineTests {
    /// The downstream stands in as a name: the machine only hands it back.
    typealias Machine = ReceiveOnStateMachine<String>

    @Test func valuesScheduledBeforeTheCompletionStillGoOut() {
        var machine = Machine(downstream: "downstream")
        #expect(machine.receiveValue() == false)
        let upstream = DedupeIdleSubscription()
        #expect(machine.receive(subscription: upstream) == "downstream")
        #expect(machine.receive(subscription: DedupeIdleSubscription()) == nil)
        #expect(machine.receiveValue() == true)
        #expect(machine.request()?.combineIdentifier == upstream.combineIdentifier)
        #expect(machine.receiveCompletion() == true)
        #expect(machine.receiveCompletion() == false)
        #expect(machine.receiveValue() == false)
        // Completing: a value already scheduled is delivered, and what the downstream answers it still reaches the
        // upstream, as in Combine; its own requests no longer do.
        #expect(machine.deliverValue() == "downstream")
        #expect(machine.request() == nil)
        #expect(machine.answer()?.combineIdentifier == upstream.combineIdentifier)
        #expect(machine.deliverCompletion() == "downstream")
        #expect(machine.deliverValue() == nil)
        #expect(machine.deliverCompletion() == nil)
        #expect(machine.answer() == nil)
    }

    @Test func nothingIsDeliveredAfterCancel() throws {
        var machine = Machine(downstream: "downstream")
        _ = machine.receive(subscription: DedupeIdleSubscription())
        _ = machine.receiveCompletion()
        let cancelled = machine.cancel()
        let (upstream, released) = try #require(cancelled)
        #expect(upstream == nil)
        #expect(released == "downstream")
        #expect(machine.deliverValue() == nil)
        #expect(machine.deliverCompletion() == nil)
        let cancelledAgain = machine.cancel()
        let (again, none) = try #require(cancelledAgain)
        #expect(again == nil && none == nil)
    }

    /// As in Combine: a cancel before the upstream's subscription arrived is ignored, and that subscription still
    /// goes to the downstream.
    @Test func aCancelBeforeTheSubscriptionDoesNothing() {
        var machine = Machine(downstream: "downstream")
        #expect(machine.cancel() == nil)
        #expect(machine.receive(subscription: DedupeIdleSubscription()) == "downstream")
        #expect(machine.receiveValue() == true)
    }
}
#endif
