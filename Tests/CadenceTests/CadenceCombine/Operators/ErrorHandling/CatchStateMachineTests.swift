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
        guard case .deliver("downstream") = machine.receiveUpstreamValue() else {
            Issue.record("expected a requested value to be delivered")
            return
        }
        guard case .callHandler = machine.receiveUpstreamCompletion(isFailure: true) else {
            Issue.record("expected the upstream's failure to call the handler")
            return
        }
        // Asked for while the replacement is on its way: kept for it.
        #expect(machine.request(.max(1)) == nil)
        guard case .none = machine.receiveUpstreamValue() else {
            Issue.record("expected a value from the failed upstream to be dropped")
            return
        }
        let replacement = DedupeIdleSubscription()
        #expect(machine.receiveReplacement(subscription: replacement) == .max(3))
        #expect(machine.receiveReplacement(subscription: DedupeIdleSubscription()) == nil)
        #expect(machine.request(.max(1))?.combineIdentifier == replacement.combineIdentifier)
        #expect(machine.receiveReplacementValue() == "downstream")
        #expect(machine.receiveReplacementCompletion() == "downstream")
        #expect(machine.receiveReplacementCompletion() == nil)
        #expect(machine.receiveReplacementValue() == nil)
    }

    @Test func aFinishedUpstreamCompletesTheDownstreamWithoutTheHandler() {
        var machine = Machine(downstream: "downstream")
        _ = machine.receiveUpstream(subscription: DedupeIdleSubscription())
        guard case .finish("downstream") = machine.receiveUpstreamCompletion(isFailure: false) else {
            Issue.record("expected the finish to be delivered")
            return
        }
        guard case .none = machine.receiveUpstreamValue() else {
            Issue.record("expected a value after the finish to be dropped")
            return
        }
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
        #expect(cancelled.cancel() == nil)
        #expect(cancelled.handlerThrew() == nil)
        #expect(cancelled.receiveReplacement(subscription: DedupeIdleSubscription()) == nil)
    }

    @Test func afterACancelLateValuesOfTheCancelledPublisherGoThroughAndNothingElse() {
        var machine = Machine(downstream: "downstream")
        let upstream = DedupeIdleSubscription()
        _ = machine.receiveUpstream(subscription: upstream)
        _ = machine.request(.max(1))
        #expect(machine.cancel()?.combineIdentifier == upstream.combineIdentifier)
        #expect(machine.cancel() == nil)
        #expect(machine.request(.max(1)) == nil)
        guard case .deliver("downstream") = machine.receiveUpstreamValue(),
            case .deliver("downstream") = machine.receiveUpstreamValue(),
            case .none = machine.receiveUpstreamCompletion(isFailure: true)
        else {
            Issue.record("expected the upstream's late values to go through, its failure to be ignored")
            return
        }
        #expect(machine.receiveReplacementValue() == nil)

        var replacing = Machine(downstream: "downstream")
        _ = replacing.receiveUpstream(subscription: DedupeIdleSubscription())
        _ = replacing.receiveUpstreamCompletion(isFailure: true)
        let replacement = DedupeIdleSubscription()
        _ = replacing.receiveReplacement(subscription: replacement)
        #expect(replacing.cancel()?.combineIdentifier == replacement.combineIdentifier)
        #expect(replacing.receiveReplacementValue() == "downstream")
        #expect(replacing.receiveReplacementCompletion() == nil)
        #expect(replacing.receiveReplacement(subscription: DedupeIdleSubscription()) == nil)
        guard case .none = replacing.receiveUpstreamValue() else {
            Issue.record("expected a value of the failed upstream to be dropped")
            return
        }
    }

    @Test func aSecondUpstreamSubscriptionIsRefused() {
        var machine = Machine(downstream: "downstream")
        _ = machine.receiveUpstream(subscription: DedupeIdleSubscription())
        #expect(machine.receiveUpstream(subscription: DedupeIdleSubscription()) == nil)
    }

    @Test func aValueBeyondTheDemandIsUnrequested() {
        var machine = Machine(downstream: "downstream")
        // Before the subscription, and so before any demand.
        guard case .unrequested = machine.receiveUpstreamValue() else {
            Issue.record("expected a value before the subscription to be unrequested")
            return
        }
        _ = machine.receiveUpstream(subscription: DedupeIdleSubscription())
        _ = machine.request(.max(1))
        guard case .deliver = machine.receiveUpstreamValue(), case .unrequested = machine.receiveUpstreamValue() else {
            Issue.record("expected the second value on a demand of one to be unrequested")
            return
        }
    }

    @Test func aFailureOutOfTurnIsABrokenRuleAndAFinishOutOfTurnIsIgnored() {
        var beforeSubscription = Machine(downstream: "downstream")
        guard case .failedOutOfTurn = beforeSubscription.receiveUpstreamCompletion(isFailure: true),
            case .none = beforeSubscription.receiveUpstreamCompletion(isFailure: false)
        else {
            Issue.record("expected a failure before the subscription to be out of turn, a finish to be ignored")
            return
        }

        var whileReplacing = Machine(downstream: "downstream")
        _ = whileReplacing.receiveUpstream(subscription: DedupeIdleSubscription())
        _ = whileReplacing.receiveUpstreamCompletion(isFailure: true)
        guard case .failedOutOfTurn = whileReplacing.receiveUpstreamCompletion(isFailure: true) else {
            Issue.record("expected a second failure while the handler runs to be out of turn")
            return
        }
        _ = whileReplacing.receiveReplacement(subscription: DedupeIdleSubscription())
        guard case .failedOutOfTurn = whileReplacing.receiveUpstreamCompletion(isFailure: true) else {
            Issue.record("expected a second failure after the replacement subscribed to be out of turn")
            return
        }
        _ = whileReplacing.cancel()
        guard case .none = whileReplacing.receiveUpstreamCompletion(isFailure: true) else {
            Issue.record("expected a failure after cancel to be ignored")
            return
        }
    }
}
#endif
