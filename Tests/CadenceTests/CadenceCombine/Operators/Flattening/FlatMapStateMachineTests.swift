// Internal machinery, reached with @testable, which only debug builds allow.
#if DEBUG && !canImport(Combine)
@testable import CadenceCombine
import Cadence
import Testing

@Suite("FlatMapStateMachine")
struct FlatMapStateMachineTests {
    typealias Machine = FlatMapStateMachine<TestSubscriber<Int, TestError>>

    static func subscribed(maxPublishers: Subscribers.Demand = .max(2))
        -> (machine: Machine, upstream: DedupeIdleSubscription, token: DeliveryToken)
    {
        let token = DeliveryToken()
        var machine = Machine(downstream: TestSubscriber(), maxPublishers: maxPublishers, token: token)
        let upstream = DedupeIdleSubscription()
        _ = machine.receiveUpstream(subscription: upstream)
        return (machine, upstream, token)
    }

    @Test func aSecondUpstreamSubscriptionIsRefused() {
        var (machine, _, _) = Self.subscribed()
        let result1 = machine.receiveUpstream(subscription: DedupeIdleSubscription())
        #expect(result1 == false)
    }

    @Test func eachUpstreamValueMakesAnInnerPublisherWithTheNextIndex() {
        var (machine, _, _) = Self.subscribed()
        let result2 = machine.receiveUpstreamValue()
        #expect(result2 == 0)
        let result3 = machine.receiveUpstreamValue()
        #expect(result3 == 1)
        #expect(machine.inners.count == 2)
    }

    @Test func anInnerIsAskedForOneValueUntilTheDemandIsUnlimited() {
        var (machine, _, _) = Self.subscribed()
        _ = machine.receiveUpstreamValue()
        _ = machine.receiveUpstreamValue()
        let inner = DedupeIdleSubscription()
        let result4 = machine.receiveInner(subscription: inner, at: 0)
        #expect(result4 == .max(1))
        let result5 = machine.receiveInner(subscription: DedupeIdleSubscription(), at: 0)
        #expect(result5 == nil)
        let result6 = machine.receiveInner(subscription: DedupeIdleSubscription(), at: 7)
        #expect(result6 == nil)
        let request = machine.request(.unlimited)
        #expect(request?.unlimitedInners.map(\.combineIdentifier) == [inner.combineIdentifier])
        #expect(request?.drains == true)
        let result7 = machine.receiveInner(subscription: DedupeIdleSubscription(), at: 1)
        #expect(result7 == .unlimited)
    }

    @Test func aFinishedInnerMakesRoomForOneMoreFromTheUpstream() {
        var (machine, upstream, _) = Self.subscribed()
        _ = machine.receiveUpstreamValue()
        guard case .requestFromUpstream(let asked) = machine.receiveInner(completion: .finished, at: 0) else {
            Issue.record("expected the upstream to be asked for one more")
            return
        }
        #expect(asked.combineIdentifier == upstream.combineIdentifier)
        guard case .none = machine.receiveInner(completion: .finished, at: 0) else {
            Issue.record("expected a second completion of the same inner to do nothing")
            return
        }
    }

    @Test func withUnlimitedPublishersTheUpstreamIsNotAskedAgain() {
        var (machine, _, _) = Self.subscribed(maxPublishers: .unlimited)
        _ = machine.receiveUpstreamValue()
        guard case .none = machine.receiveInner(completion: .finished, at: 0) else {
            Issue.record("expected nothing to do")
            return
        }
    }

    @Test func theLastFinishAfterTheUpstreamFinishedCompletesTheDownstream() {
        var (machine, _, _) = Self.subscribed()
        _ = machine.receiveUpstreamValue()
        let result8 = machine.receiveUpstream(completion: .finished)
        #expect(result8 == nil)
        guard case .terminate(let termination) = machine.receiveInner(completion: .finished, at: 0) else {
            Issue.record("expected the subscription to end")
            return
        }
        #expect(termination.downstream != nil)
        #expect(termination.completion == .finished)
        #expect(machine.isTerminated)
        let result9 = machine.receiveUpstreamValue()
        #expect(result9 == nil)
    }

    @Test func aFinishWhileAnotherThreadDeliversIsLeftToIt() {
        var (machine, _, token) = Self.subscribed()
        #expect(token.take())
        let result10 = machine.receiveUpstream(completion: .finished)
        #expect(result10 == nil)
        #expect(machine.isTerminated == false)
        guard case .deliver = machine.deliveryTurn() else {
            Issue.record("expected the token holder to go on")
            return
        }
        let finished = machine.endDelivery()
        #expect(finished != nil)
        #expect(machine.isTerminated)
        #expect(token.isHeld == false)
    }

    @Test func anInnerFailureCancelsEverythingAndDropsTheBuffer() {
        var (machine, upstream, _) = Self.subscribed()
        _ = machine.receiveUpstreamValue()
        _ = machine.receiveUpstreamValue()
        let other = DedupeIdleSubscription()
        _ = machine.receiveInner(subscription: other, at: 1)
        guard case .wait = machine.delivery.arrive(5, from: 1) else {
            Issue.record("expected the value to be buffered without demand")
            return
        }
        guard case .terminate(let termination) = machine.receiveInner(completion: .failure(.oops), at: 0) else {
            Issue.record("expected the subscription to end")
            return
        }
        #expect(termination.dropped.elements.map(\.value) == [5])
        #expect(termination.cancelling.map(\.combineIdentifier) == [other.combineIdentifier])
        #expect(termination.upstream?.combineIdentifier == upstream.combineIdentifier)
        #expect(termination.downstream != nil)
        #expect(termination.completion == .failure(.oops))
        #expect(machine.inners.isEmpty)
        #expect(machine.downstreamForValues == nil)
    }

    @Test func aFailureWhileAnotherThreadDeliversWaitsForIt() {
        var (machine, _, token) = Self.subscribed()
        #expect(token.take())
        let termination = machine.receiveUpstream(completion: .failure(.oops))
        #expect(termination?.downstream == nil)
        #expect(machine.pendingCompletion == .failure(.oops))
        guard case .end(let downstream, let completion) = machine.deliveryTurn() else {
            Issue.record("expected the token holder to deliver the failure")
            return
        }
        #expect(downstream != nil)
        #expect(completion == .failure(.oops))
        #expect(token.isHeld == false)
    }

    @Test func cancellingHandsBackEverythingOnceAndDropsAPendingCompletion() {
        var (machine, upstream, token) = Self.subscribed()
        _ = machine.receiveUpstreamValue()
        let inner = DedupeIdleSubscription()
        _ = machine.receiveInner(subscription: inner, at: 0)
        #expect(token.take())
        _ = machine.receiveUpstream(completion: .failure(.oops))
        let cancellation = machine.cancel()
        #expect(cancellation?.released.downstream != nil)
        #expect(cancellation?.upstream == nil) // the upstream completed
        #expect(machine.pendingCompletion == nil)
        let result11 = machine.cancel()
        #expect(result11 == nil)
        let result12 = machine.request(.max(1))
        #expect(result12 == nil)

        var (live, liveUpstream, _) = Self.subscribed()
        _ = live.receiveUpstreamValue()
        _ = live.receiveInner(subscription: inner, at: 0)
        let liveCancellation = live.cancel()
        #expect(liveCancellation?.inners.map(\.combineIdentifier) == [inner.combineIdentifier])
        #expect(liveCancellation?.upstream?.combineIdentifier == liveUpstream.combineIdentifier)
        _ = upstream
    }
}

#endif
