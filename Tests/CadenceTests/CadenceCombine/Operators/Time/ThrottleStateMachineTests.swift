#if DEBUG && !canImport(Combine)
@testable import CadenceCombine
import Cadence
import Testing

@Suite("ThrottleStateMachine")
struct ThrottleStateMachineTests {
    typealias Machine = ThrottleStateMachine<TestSubscriber<Int, TestError>, VirtualTime>

    static func subscribed(latest: Bool, demand: Subscribers.Demand = .unlimited) -> Machine {
        var machine = Machine(downstream: TestSubscriber(), interval: .ticks(300), latest: latest)
        let source = DrivenPublisher<Int, TestError>()
        source.subscribe(TestSubscriber<Int, TestError>())
        _ = machine.receive(subscription: source.subscription)
        machine.add(demand: demand)
        return machine
    }

    static func scheduledAt(_ action: Machine.ValueAction) -> VirtualTime?? {
        guard case .scheduleEmission(let date) = action else { return .none }
        return .some(date)
    }

    @Test func theFirstValueIsScheduledAtOnceAndSetsAsideOneUnitOfDemand() {
        var machine = Self.subscribed(latest: true, demand: .max(2))
        #expect(Self.scheduledAt(machine.receive(1, now: VirtualTime(tick: 50))) == .some(nil))
        #expect(machine.demand == .max(1))
        #expect(machine.isEmissionScheduled)
    }

    @Test func theNextWindowOpensIntervalAfterTheLastEmission() {
        var machine = Self.subscribed(latest: false)
        _ = machine.receive(1, now: VirtualTime(tick: 0))
        #expect(machine.emissionDue(now: VirtualTime(tick: 10))?.value == 1)
        #expect(machine.lastEmission == VirtualTime(tick: 10))
        #expect(machine.emissionDelivered(adding: .none) == nil)
        #expect(Self.scheduledAt(machine.receive(2, now: VirtualTime(tick: 309))) == .some(VirtualTime(tick: 310)))
        _ = machine.emissionDue(now: VirtualTime(tick: 310))
        #expect(Self.scheduledAt(machine.receive(3, now: VirtualTime(tick: 610))) == .some(nil))
    }

    @Test func latestReplacesTheHeldValueAndFirstKeepsIt() {
        var latest = Self.subscribed(latest: true)
        _ = latest.receive(1, now: VirtualTime(tick: 0))
        guard case .none(let replaced) = latest.receive(2, now: VirtualTime(tick: 0)) else {
            Issue.record("expected no new emission")
            return
        }
        #expect(replaced == 1)
        #expect(latest.pendingValue == 2)

        var first = Self.subscribed(latest: false)
        _ = first.receive(1, now: VirtualTime(tick: 0))
        guard case .none(let dropped) = first.receive(2, now: VirtualTime(tick: 0)) else {
            Issue.record("expected no new emission")
            return
        }
        #expect(dropped == 2)
        #expect(first.pendingValue == 1)
    }

    @Test func theCompletionFollowsTheHeldValueUnlessANewerEmissionWillCarryIt() {
        var machine = Self.subscribed(latest: true)
        _ = machine.receive(1, now: VirtualTime(tick: 0))
        #expect(machine.receive(completion: .finished) == false)
        #expect(machine.emissionDue(now: VirtualTime(tick: 0))?.value == 1)
        #expect(machine.emissionDelivered(adding: .max(3))?.completion == .finished)
        #expect(machine.downstream == nil)
        #expect(machine.emissionDue(now: VirtualTime(tick: 0)) == nil)
    }

    @Test func aCancelledSubscriptionsEmissionFindsNothing() {
        var machine = Self.subscribed(latest: true)
        _ = machine.receive(1, now: VirtualTime(tick: 0))
        let cancellation = machine.cancel()
        #expect(cancellation.upstream != nil)
        #expect(cancellation.released.value == 1)
        #expect(machine.emissionDue(now: VirtualTime(tick: 0)) == nil)
        #expect(machine.cancel().upstream == nil)
    }
}
#endif
