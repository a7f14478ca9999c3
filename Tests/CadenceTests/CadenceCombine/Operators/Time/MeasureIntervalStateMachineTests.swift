// Internal machinery, reached with @testable, which only debug builds allow.
#if DEBUG && !canImport(Combine)
@testable import CadenceCombine
import Cadence
import Testing

@Suite("MeasureIntervalStateMachine")
struct MeasureIntervalStateMachineTests {
    /// Times are plain integers; the downstream stands in as a name: the machine only hands it back.
    typealias Machine = MeasureIntervalStateMachine<Int, String>

    @Test func eachValueGetsTheTimeSinceTheEventBefore() {
        var machine = Machine(downstream: "downstream")
        #expect(machine.receiveValue(at: 3) == nil)
        let upstream = DedupeIdleSubscription()
        #expect(machine.receive(subscription: upstream, at: 5) == "downstream")
        #expect(machine.receive(subscription: DedupeIdleSubscription(), at: 6) == nil)
        #expect(machine.receiveValue(at: 12)?.interval == 7)
        #expect(machine.receiveValue(at: 20)?.interval == 8)
        #expect(machine.request()?.combineIdentifier == upstream.combineIdentifier)
        #expect(machine.receiveCompletion() == "downstream")
        #expect(machine.receiveCompletion() == nil)
        #expect(machine.receiveValue(at: 30) == nil)
        #expect(machine.request() == nil)
    }

    @Test func cancelHandsBackTheUpstreamAndTheDownstream() {
        var machine = Machine(downstream: "downstream")
        let upstream = DedupeIdleSubscription()
        _ = machine.receive(subscription: upstream, at: 0)
        let (cancelled, released) = machine.cancel()
        #expect(cancelled?.combineIdentifier == upstream.combineIdentifier)
        #expect(released == "downstream")
        #expect(machine.receiveValue(at: 1) == nil)
    }
}
#endif
