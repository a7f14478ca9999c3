// Internal machinery, reached with @testable, which only debug builds allow.
#if DEBUG && !canImport(Combine)
@testable import CadenceCombine
import Cadence
import Testing

@Suite("RetryStateMachine")
struct RetryStateMachineTests {
    /// The downstream stands in as a name: the machine only hands it back.
    typealias Machine = RetryStateMachine<String>

    @Test func theDownstreamGetsOneSubscriptionAndEachNewUpstreamTheOutstandingDemand() {
        var machine = Machine(downstream: "downstream", retries: 1)
        let first = DedupeIdleSubscription()
        guard case .attach("downstream"?, .none) = machine.receive(subscription: first) else {
            Issue.record("expected the first subscription to reach the downstream, with no demand yet")
            return
        }
        #expect(machine.request(.max(3))?.combineIdentifier == first.combineIdentifier)
        guard case .deliver("downstream") = machine.receiveValue() else {
            Issue.record("expected a requested value to be delivered")
            return
        }
        #expect(machine.demand == .max(2))
        // What the downstream returns for the value is requested from the current upstream.
        #expect(machine.downstreamAsked(.max(1))?.combineIdentifier == first.combineIdentifier)
        #expect(machine.demand == .max(3))
        guard case .resubscribe = machine.receive(completion: true) else {
            Issue.record("expected a failure with a retry left to resubscribe")
            return
        }
        #expect(machine.remaining == 0)
        #expect(machine.resubscribeAgain() == false)
        guard case .attach(nil, .max(3)) = machine.receive(subscription: DedupeIdleSubscription()) else {
            Issue.record("expected the new upstream to be asked for the outstanding demand, and no second handover")
            return
        }
    }

    @Test func aFailureWithNoRetryLeftReachesTheDownstreamAndEndsTheSubscription() {
        var machine = Machine(downstream: "downstream", retries: 0)
        _ = machine.receive(subscription: DedupeIdleSubscription())
        guard case .deliver("downstream") = machine.receive(completion: true) else {
            Issue.record("expected the failure to be delivered")
            return
        }
        guard case .none = machine.receiveValue() else {
            Issue.record("expected a value after the end to be dropped")
            return
        }
        #expect(machine.request(.max(1)) == nil)
        guard case .none = machine.receive(completion: true) else {
            Issue.record("expected a completion after the end to be ignored")
            return
        }
    }

    @Test func aFailureFromInsideTheResubscriptionLoopsInsteadOfRecursing() {
        var machine = Machine(downstream: "downstream", retries: nil)
        _ = machine.receive(subscription: DedupeIdleSubscription())
        guard case .resubscribe = machine.receive(completion: true) else {
            Issue.record("expected the first failure to resubscribe")
            return
        }
        // The upstream fails again while the caller is still inside `subscribe`.
        guard case .none = machine.receive(completion: true) else {
            Issue.record("expected the nested failure to be left to the caller's loop")
            return
        }
        #expect(machine.resubscribeAgain() == true)
        #expect(machine.resubscribeAgain() == false)
        #expect(machine.remaining == nil)
    }

    @Test func cancelHandsBackTheDownstreamAndTheUpstreamOnce() {
        var machine = Machine(downstream: "downstream", retries: 1)
        let upstream = DedupeIdleSubscription()
        _ = machine.receive(subscription: upstream)
        let (released, cancelled) = machine.cancel()
        #expect(released == "downstream")
        #expect(cancelled?.combineIdentifier == upstream.combineIdentifier)
        let (again, none) = machine.cancel()
        #expect(again == nil && none == nil)
        guard case .cancel = machine.receive(subscription: DedupeIdleSubscription()) else {
            Issue.record("expected a subscription after cancel to be refused")
            return
        }
    }

    @Test func aValueBeyondTheDemandIsUnrequested() {
        var machine = Machine(downstream: "downstream", retries: 1)
        // Before any subscription, and so before any demand.
        guard case .unrequested = machine.receiveValue() else {
            Issue.record("expected a value before the subscription to be unrequested")
            return
        }
        _ = machine.receive(subscription: DedupeIdleSubscription())
        _ = machine.request(.max(1))
        guard case .deliver = machine.receiveValue(), case .unrequested = machine.receiveValue() else {
            Issue.record("expected the second value on a demand of one to be unrequested")
            return
        }
    }

    @Test func aNegativeNumberOfRetriesRetriesIndefinitely() {
        var machine = Machine(downstream: "downstream", retries: -1)
        for _ in 0..<3 {
            _ = machine.receive(subscription: DedupeIdleSubscription())
            guard case .resubscribe = machine.receive(completion: true) else {
                Issue.record("expected a failure to resubscribe")
                return
            }
            #expect(machine.resubscribeAgain() == false)
        }
        #expect(machine.remaining == -1)
    }
}
#endif
