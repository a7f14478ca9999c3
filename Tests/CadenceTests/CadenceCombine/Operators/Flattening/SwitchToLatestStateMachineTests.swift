// Internal machinery, reached with @testable, which only debug builds allow.
#if DEBUG && !canImport(Combine)
@testable import CadenceCombine
import Cadence
import Testing

@Suite("SwitchToLatestStateMachine")
struct SwitchToLatestStateMachineTests {
    typealias Machine = SwitchToLatestStateMachine<TestSubscriber<Int, TestError>>

    /// A machine subscribed to its upstream, with inner publisher 0 subscribed as `inner`.
    static func withInner(demand: Subscribers.Demand = .none)
        -> (machine: Machine, upstream: DedupeIdleSubscription, inner: DedupeIdleSubscription)
    {
        var machine = Machine(downstream: TestSubscriber())
        let upstream = DedupeIdleSubscription()
        _ = machine.receiveUpstream(subscription: upstream)
        if demand > 0 {
            _ = machine.request(demand)
        }
        _ = machine.receiveUpstreamPublisher()
        let inner = DedupeIdleSubscription()
        _ = machine.receiveInner(subscription: inner, at: 0)
        return (machine, upstream, inner)
    }

    @Test func aSecondUpstreamSubscriptionIsRefused() {
        var machine = Machine(downstream: TestSubscriber())
        let result1 = machine.receiveUpstream(subscription: DedupeIdleSubscription())
        #expect(result1)
        let result2 = machine.receiveUpstream(subscription: DedupeIdleSubscription())
        #expect(result2 == false)
    }

    @Test func aNewInnerPublisherHandsBackThePreviousOneToCancel() {
        var (machine, _, inner) = Self.withInner()
        let next = machine.receiveUpstreamPublisher()
        #expect(next?.index == 1)
        #expect(next?.previous?.combineIdentifier == inner.combineIdentifier)
        // The older publisher's late events do nothing.
        let result3 = machine.receiveInner(subscription: DedupeIdleSubscription(), at: 0)
        #expect(result3 == nil)
        let result4 = machine.receiveInner(5, at: 0)
        #expect(result4 == nil)
        #expect(machine.queue.isEmpty)
        let result5 = machine.receiveInner(completion: .finished, at: 0)
        #expect(result5 == nil)
    }

    @Test func anInnerSubscriptionIsAskedForTheOutstandingDemand() {
        var machine = Machine(downstream: TestSubscriber())
        _ = machine.receiveUpstream(subscription: DedupeIdleSubscription())
        _ = machine.request(.max(3))
        _ = machine.receiveUpstreamPublisher()
        let inner = DedupeIdleSubscription()
        let result6 = machine.receiveInner(subscription: inner, at: 0)
        #expect(result6 == .max(3))
        let result7 = machine.receiveInner(subscription: DedupeIdleSubscription(), at: 0)
        #expect(result7 == nil)
    }

    @Test func aValueWithDemandGoesOutAtOnceAndTheAnswerGoesToItsPublisher() {
        var (machine, _, _) = Self.withInner(demand: .max(1))
        let result8 = machine.receiveInner(1, at: 0)
        #expect(result8 != nil)
        #expect(machine.isEmitting)
        #expect(machine.demand == .none)
        let (answer, next) = machine.innerDelivered(.max(2), at: 0)
        #expect(answer == .max(2))
        guard case .stop = next else {
            Issue.record("expected the emitter to stop with nothing queued")
            return
        }
        #expect(machine.isEmitting == false)
        #expect(machine.demand == .max(2))
    }

    @Test func theAnswerGoesToTheLatestPublisherWhenTheUpstreamSwitchedMeanwhile() {
        var (machine, _, _) = Self.withInner(demand: .max(1))
        _ = machine.receiveInner(1, at: 0)
        _ = machine.receiveUpstreamPublisher()
        let latest = DedupeIdleSubscription()
        let result9 = machine.receiveInner(subscription: latest, at: 1)
        #expect(result9 == Subscribers.Demand.none)
        let (answer, next) = machine.innerDelivered(.max(1), at: 0)
        #expect(answer == .none)
        guard case .requestMore(let subscription, let demand) = next else {
            Issue.record("expected the latest publisher to be asked")
            return
        }
        #expect(subscription.combineIdentifier == latest.combineIdentifier)
        #expect(demand == .max(1))
    }

    @Test func valuesWithoutDemandQueueAndARequestDrainsThem() {
        var (machine, _, inner) = Self.withInner()
        let result10 = machine.receiveInner(1, at: 0)
        #expect(result10 == nil)
        let result11 = machine.receiveInner(2, at: 0)
        #expect(result11 == nil)
        #expect(machine.queue.elements == [1, 2])
        let request = machine.request(.max(1))
        #expect(request?.inner?.combineIdentifier == inner.combineIdentifier)
        #expect(request?.drains == true)
        guard case .deliver(_, 1) = machine.nextDrainStep() else {
            Issue.record("expected the oldest queued value")
            return
        }
        guard case .requestMore(let asked, .max(1)) = machine.delivered(.max(1)) else {
            Issue.record("expected the inner publisher to be asked for what the downstream answered")
            return
        }
        #expect(asked.combineIdentifier == inner.combineIdentifier)
        guard case .deliver(_, 2) = machine.nextDrainStep() else {
            Issue.record("expected the next queued value")
            return
        }
        guard case .stop = machine.delivered(.none) else {
            Issue.record("expected the emitter to stop")
            return
        }
        let again = machine.request(.max(1))
        #expect(again?.drains == false)
    }

    @Test func aFinishWaitsForTheQueueAndTheEmitterDeliversIt() {
        var (machine, _, _) = Self.withInner()
        _ = machine.receiveInner(1, at: 0)
        let result12 = machine.receiveUpstream(completion: .finished)
        #expect(result12 == nil)
        let termination = machine.receiveInner(completion: .finished, at: 0)
        #expect(termination != nil)
        #expect(termination?.downstream == nil)
        #expect(machine.pendingCompletion == .finished)
        let result13 = machine.request(.max(1))
        #expect(result13?.drains == true)
        guard case .deliver(_, 1) = machine.nextDrainStep() else {
            Issue.record("expected the queued value first")
            return
        }
        guard case .complete(let downstream, .finished) = machine.delivered(.none) else {
            Issue.record("expected the completion after the queue")
            return
        }
        #expect(downstream != nil)
        #expect(machine.downstream == nil)
        let result14 = machine.request(.max(1))
        #expect(result14 == nil)
    }

    @Test func anInnerFailureDropsTheQueueAndCancelsTheUpstream() {
        var (machine, upstream, _) = Self.withInner()
        _ = machine.receiveInner(1, at: 0)
        let termination = machine.receiveInner(completion: .failure(.oops), at: 0)
        #expect(termination?.dropped.elements == [1])
        #expect(termination?.cancelling?.combineIdentifier == upstream.combineIdentifier)
        #expect(termination?.downstream != nil)
        #expect(termination?.completion == .failure(.oops))
        #expect(machine.isTerminated)
        let result15 = machine.receiveUpstreamPublisher()
        #expect(result15 == nil)
    }

    @Test func anUpstreamFailureCancelsTheCurrentInner() {
        var (machine, _, inner) = Self.withInner()
        let termination = machine.receiveUpstream(completion: .failure(.oops))
        #expect(termination?.cancelling?.combineIdentifier == inner.combineIdentifier)
        #expect(termination?.downstream != nil)
        #expect(machine.current == nil)
    }

    @Test func aFailureWhileEmittingWaitsForTheEmitter() {
        var (machine, _, _) = Self.withInner(demand: .max(1))
        _ = machine.receiveInner(1, at: 0)
        let termination = machine.receiveUpstream(completion: .failure(.oops))
        #expect(termination?.downstream == nil)
        let (_, next) = machine.innerDelivered(.none, at: 0)
        guard case .complete(let downstream, .failure(.oops)) = next else {
            Issue.record("expected the emitter to deliver the failure")
            return
        }
        #expect(downstream != nil)
    }

    @Test func cancellingHandsBackEverythingOnce() {
        var (machine, upstream, inner) = Self.withInner()
        _ = machine.receiveInner(1, at: 0)
        let cancellation = machine.cancel()
        #expect(cancellation?.released.downstream != nil)
        #expect(cancellation?.released.queue.elements == [1])
        #expect(cancellation?.inner?.combineIdentifier == inner.combineIdentifier)
        #expect(cancellation?.upstream?.combineIdentifier == upstream.combineIdentifier)
        let result16 = machine.cancel()
        #expect(result16 == nil)
        let result17 = machine.receiveUpstream(subscription: DedupeIdleSubscription())
        #expect(result17 == false)
    }
}

#endif
