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
        // Completing: a value already scheduled is delivered, but nothing more is asked of the upstream.
        #expect(machine.deliverValue() == "downstream")
        #expect(machine.request() == nil)
        #expect(machine.deliverCompletion() == "downstream")
        #expect(machine.deliverValue() == nil)
        #expect(machine.deliverCompletion() == nil)
    }

    @Test func nothingIsDeliveredAfterCancel() {
        var machine = Machine(downstream: "downstream")
        _ = machine.receive(subscription: DedupeIdleSubscription())
        _ = machine.receiveCompletion()
        let (upstream, released) = machine.cancel()
        #expect(upstream == nil)
        #expect(released == "downstream")
        #expect(machine.deliverValue() == nil)
        #expect(machine.deliverCompletion() == nil)
        let (again, none) = machine.cancel()
        #expect(again == nil && none == nil)
    }
}
#endif
