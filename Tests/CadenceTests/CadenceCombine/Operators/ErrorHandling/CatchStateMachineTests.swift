// Internal machinery, reached with @testable, which only debug builds allow.
#if DEBUG && !canImport(Combine)
@testable import CadenceCombine
import Cadence
import Testing

@Suite("CatchStateMachine")
struct CatchStateMachineTests {
    /// The downstream stands in as a name: the machine only hands it back.
    typealias Machine = CatchStateMachine<String>

    @Test func theOutstandingDemandCarriesOverToTheReplacement() {
        var machine = Machine(downstream: "downstream")
        let upstream = DedupeIdleSubscription()
        #expect(machine.receiveUpstream(subscription: upstream) == "downstream")
        #expect(machine.request(.max(3))?.combineIdentifier == upstream.combineIdentifier)
        #expect(machine.receiveUpstreamValue() == "downstream")
        guard case .callHandler = machine.receiveUpstreamCompletion(isFailure: true) else {
            Issue.record("expected the upstream's failure to call the handler")
            return
        }
        // Asked for while the replacement is on its way: kept for it.
        #expect(machine.request(.max(1)) == nil)
        #expect(machine.receiveUpstreamValue() == nil)
        let replacement = DedupeIdleSubscription()
        #expect(machine.receiveReplacement(subscription: replacement) == .max(3))
        #expect(machine.receiveReplacement(subscription: DedupeIdleSubscription()) == nil)
        #expect(machine.request(.max(1))?.combineIdentifier == replacement.combineIdentifier)
        #expect(machine.receiveReplacementValue() == "downstream")
        #expect(machine.receiveReplacementCompletion() == "downstream")
        #expect(machine.receiveReplacementCompletion() == nil)
        #expect(machine.downstream == nil)
    }

    @Test func aFinishedUpstreamCompletesTheDownstreamWithoutTheHandler() {
        var machine = Machine(downstream: "downstream")
        _ = machine.receiveUpstream(subscription: DedupeIdleSubscription())
        guard case .finish("downstream") = machine.receiveUpstreamCompletion(isFailure: false) else {
            Issue.record("expected the finish to be delivered")
            return
        }
        #expect(machine.receiveUpstreamValue() == nil)
        #expect(machine.handlerThrew() == nil)
    }

    @Test func whatTheHandlerThrowsIsDroppedWhenTheSubscriptionWasCancelledMeanwhile() {
        var thrown = Machine(downstream: "downstream")
        _ = thrown.receiveUpstream(subscription: DedupeIdleSubscription())
        _ = thrown.receiveUpstreamCompletion(isFailure: true)
        #expect(thrown.handlerThrew() == "downstream")

        var cancelled = Machine(downstream: "downstream")
        _ = cancelled.receiveUpstream(subscription: DedupeIdleSubscription())
        _ = cancelled.receiveUpstreamCompletion(isFailure: true)
        let (released, subscription) = cancelled.cancel()
        #expect(released == "downstream" && subscription == nil)
        #expect(cancelled.handlerThrew() == nil)
        #expect(cancelled.receiveReplacement(subscription: DedupeIdleSubscription()) == nil)
    }

    @Test func aSecondUpstreamSubscriptionIsRefused() {
        var machine = Machine(downstream: "downstream")
        _ = machine.receiveUpstream(subscription: DedupeIdleSubscription())
        #expect(machine.receiveUpstream(subscription: DedupeIdleSubscription()) == nil)
    }
}
#endif
