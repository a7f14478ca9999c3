// Internal machinery, reached with @testable, which only debug builds allow.
#if DEBUG && !canImport(Combine)
@testable import CadenceCombine
import Cadence
import Testing

@Suite("ConcatenateStateMachine")
struct ConcatenateStateMachineTests {
    /// The downstream and the suffix stand in as names: the machine only hands them back.
    typealias Machine = ConcatenateStateMachine<String, String>

    @Test func thePrefixSendsOnlyWhatWasAskedForAndTheSuffixInheritsTheRest() {
        var machine = Machine(downstream: "downstream", suffix: "suffix")
        let prefix = DedupeIdleSubscription()
        #expect(machine.receivePrefix(subscription: prefix) == "downstream")
        #expect(machine.receivePrefixValue() == nil)
        #expect(machine.request(.max(2))?.combineIdentifier == prefix.combineIdentifier)
        #expect(machine.receivePrefixValue() == "downstream")
        guard case .subscribeSuffix("suffix"?) = machine.receivePrefixCompletion(isFailure: false) else {
            Issue.record("expected the prefix's finish to subscribe to the suffix")
            return
        }
        #expect(machine.request(.max(1)) == nil)
        let suffix = DedupeIdleSubscription()
        #expect(machine.receiveSuffix(subscription: suffix) == .max(2))
        #expect(machine.receiveSuffix(subscription: DedupeIdleSubscription()) == nil)
        #expect(machine.receiveSuffixValue() == "downstream")
        #expect(machine.receiveSuffixCompletion() == "downstream")
        #expect(machine.receiveSuffixValue() == nil)
    }

    @Test func aFailedPrefixFailsTheDownstreamAndReleasesTheSuffix() {
        var machine = Machine(downstream: "downstream", suffix: "suffix")
        _ = machine.receivePrefix(subscription: DedupeIdleSubscription())
        guard case .fail("downstream", "suffix"?) = machine.receivePrefixCompletion(isFailure: true) else {
            Issue.record("expected the failure to reach the downstream, the suffix to be released")
            return
        }
        #expect(machine.receiveSuffix(subscription: DedupeIdleSubscription()) == nil)
        guard case .none = machine.receivePrefixCompletion(isFailure: false) else {
            Issue.record("expected a second completion to be ignored")
            return
        }
    }

    @Test func cancelHandsBackTheRunningUpstreamAndTheSuffixButKeepsTheDownstream() {
        var machine = Machine(downstream: "downstream", suffix: "suffix")
        let prefix = DedupeIdleSubscription()
        _ = machine.receivePrefix(subscription: prefix)
        let (upstream, released) = machine.cancel()
        #expect(upstream?.combineIdentifier == prefix.combineIdentifier)
        #expect(released == "suffix")
        #expect(machine.downstream == "downstream")
        #expect(machine.receivePrefix(subscription: DedupeIdleSubscription()) == nil)
        #expect(machine.request(.max(1)) == nil)
    }
}
#endif
