// Internal machinery, reached with @testable, which only debug builds allow.
#if DEBUG && !canImport(Combine)
@testable import CadenceCombine
import Cadence
import Testing

@Suite("SwitchToLatestStateMachine")
struct SwitchToLatestStateMachineTests {
    typealias Machine = SwitchToLatestStateMachine<TestSubscriber<Int, TestError>>

    /// A machine subscribed to its upstream, with inner publisher 0 subscribed as `inner`.
    static func withInner(
        demand: Subscribers.Demand = .none
    )
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
        guard case .none = machine.receiveInner(5, at: 0) else {
            Issue.record("expected the older publisher's value to be ignored")
            return
        }
        #expect(machine.queue.isEmpty)
        guard case .none = machine.receiveInner(completion: .finished, at: 0) else {
            Issue.record("expected the older publisher's completion to be ignored")
            return
        }
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
        guard case .deliver = machine.receiveInner(1, at: 0) else {
            Issue.record("expected a requested value to go out at once")
            return
        }
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

    @Test func valuesArrivingWhileEmittingQueueWithTheirDemandTakenAndTheEmitterDrainsThem() {
        var (machine, _, inner) = Self.withInner(demand: .max(3))
        guard case .deliver = machine.receiveInner(1, at: 0),
            case .none = machine.receiveInner(2, at: 0),
            case .none = machine.receiveInner(3, at: 0)
        else {
            Issue.record("expected the first value to go out and the next two to queue")
            return
        }
        #expect(machine.queue.elements == [2, 3])
        #expect(machine.demand == .none)
        let (answer, next) = machine.innerDelivered(.max(1), at: 0)
        #expect(answer == .max(1))
        guard case .deliver(_, 2) = next else {
            Issue.record("expected the oldest queued value")
            return
        }
        guard case .deliver(_, 3) = machine.delivered(.none) else {
            Issue.record("expected the next queued value")
            return
        }
        guard case .requestMore(let asked, .max(1)) = machine.delivered(.max(1)) else {
            Issue.record("expected the inner publisher to be asked for what the downstream answered")
            return
        }
        #expect(asked.combineIdentifier == inner.combineIdentifier)
        guard case .stop = machine.nextDrainStep() else {
            Issue.record("expected the emitter to stop")
            return
        }
        #expect(machine.demand == .max(2))
        #expect(machine.request(.max(1))?.drains == false)
    }

    @Test func aValueBeyondTheDemandIsUnrequested() {
        var (machine, _, _) = Self.withInner(demand: .max(1))
        _ = machine.receiveInner(1, at: 0)
        guard case .unrequested = machine.receiveInner(2, at: 0) else {
            Issue.record("expected the second value on a demand of one to be unrequested")
            return
        }
        #expect(machine.queue.isEmpty)
    }

    @Test func theLatestInnerCompletingBeforeItsSubscriptionIsABrokenRule() {
        var machine = Machine(downstream: TestSubscriber())
        _ = machine.receiveUpstream(subscription: DedupeIdleSubscription())
        _ = machine.receiveUpstreamPublisher()
        guard case .beforeSubscription = machine.receiveInner(completion: .finished, at: 0) else {
            Issue.record("expected a completion before the subscription to be a broken rule")
            return
        }
        #expect(machine.current?.index == 0)
    }

    @Test func aFinishWaitsForTheQueueAndTheEmitterDeliversIt() {
        var (machine, _, _) = Self.withInner(demand: .max(2))
        _ = machine.receiveInner(1, at: 0)
        _ = machine.receiveInner(2, at: 0)
        let result12 = machine.receiveUpstream(completion: .finished)
        #expect(result12 == nil)
        guard case .terminate(let termination) = machine.receiveInner(completion: .finished, at: 0) else {
            Issue.record("expected the finish to end the subscription")
            return
        }
        #expect(termination.downstream == nil)
        #expect(machine.pendingCompletion == .finished)
        guard case .deliver(_, 2) = machine.innerDelivered(.none, at: 0).next else {
            Issue.record("expected the queued value first")
            return
        }
        guard case .complete(_, .finished) = machine.delivered(.none) else {
            Issue.record("expected the completion after the queue")
            return
        }
        let result14 = machine.request(.max(1))
        #expect(result14 == nil)
    }

    @Test func anInnerFailureDropsTheQueueAndCancelsTheUpstream() {
        var (machine, upstream, _) = Self.withInner(demand: .max(2))
        _ = machine.receiveInner(1, at: 0)
        _ = machine.receiveInner(2, at: 0)
        guard case .terminate(let termination) = machine.receiveInner(completion: .failure(.oops), at: 0) else {
            Issue.record("expected the failure to end the subscription")
            return
        }
        #expect(termination.dropped.elements == [2])
        #expect(termination.cancelling?.combineIdentifier == upstream.combineIdentifier)
        #expect(termination.downstream == nil) // the emitter delivers it
        #expect(termination.completion == .failure(.oops))
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
        guard case .complete(_, .failure(.oops)) = next else {
            Issue.record("expected the emitter to deliver the failure")
            return
        }
    }

    @Test func cancellingHandsBackEverythingOnce() {
        var (machine, upstream, inner) = Self.withInner(demand: .max(2))
        _ = machine.receiveInner(1, at: 0)
        _ = machine.receiveInner(2, at: 0)
        let cancellation = machine.cancel()
        #expect(cancellation?.released.elements == [2])
        #expect(cancellation?.inner?.combineIdentifier == inner.combineIdentifier)
        #expect(cancellation?.upstream?.combineIdentifier == upstream.combineIdentifier)
        let result16 = machine.cancel()
        #expect(result16 == nil)
        let result17 = machine.receiveUpstream(subscription: DedupeIdleSubscription())
        #expect(result17 == false)
    }
}

#endif
