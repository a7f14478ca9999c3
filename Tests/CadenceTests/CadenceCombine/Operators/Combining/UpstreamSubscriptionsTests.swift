// Internal machinery, reached with @testable, which only debug builds allow.
#if DEBUG && !canImport(Combine)
@testable import CadenceCombine
import Cadence
import Testing

private func identifiers(_ subscriptions: [(any Subscription)?]) -> [CombineIdentifier?] {
    subscriptions.map { $0?.combineIdentifier }
}

@Suite("UpstreamSubscriptions")
struct UpstreamSubscriptionsTests {
    @Test func eachUpstreamIsSubscribedToOnce() {
        var upstreams = UpstreamSubscriptions(count: 2)
        let first = DedupeIdleSubscription()
        let second = DedupeIdleSubscription()
        let attachedFirst = upstreams.attach(first, at: 1)
        let attachedSecond = upstreams.attach(second, at: 1)
        #expect(attachedFirst)
        #expect(attachedSecond == false)
        #expect(identifiers(upstreams.subscriptions) == [nil, first.combineIdentifier])
        #expect(upstreams[1]?.combineIdentifier == first.combineIdentifier)
    }

    @Test func eachUpstreamCompletesOnceAndFinishingLetsItsSubscriptionGo() {
        var upstreams = UpstreamSubscriptions(count: 2)
        let a = DedupeIdleSubscription()
        let b = DedupeIdleSubscription()
        _ = upstreams.attach(a, at: 0)
        _ = upstreams.attach(b, at: 1)
        let completedOnce = upstreams.markCompleted(0)
        let completedTwice = upstreams.markCompleted(0)
        #expect(completedOnce)
        #expect(completedTwice == false)
        upstreams.markFinished(0)
        #expect(upstreams.completed == [true, false])
        #expect(upstreams.finishedCount == 1)
        #expect(upstreams.allFinished == false)
        #expect(identifiers(upstreams.subscriptions) == [nil, b.combineIdentifier])
        _ = upstreams.markCompleted(1)
        upstreams.markFinished(1)
        #expect(upstreams.allFinished)
    }

    @Test func takeAllHandsBackWhatIsHeldAndForgetsIt() {
        var upstreams = UpstreamSubscriptions(count: 3)
        let a = DedupeIdleSubscription()
        let c = DedupeIdleSubscription()
        _ = upstreams.attach(a, at: 0)
        _ = upstreams.attach(DedupeIdleSubscription(), at: 1)
        _ = upstreams.attach(c, at: 2)
        upstreams.forget(1)
        let taken = upstreams.takeAll()
        #expect(identifiers(taken) == [a.combineIdentifier, nil, c.combineIdentifier])
        #expect(identifiers(upstreams.subscriptions) == [nil, nil, nil])
        #expect(upstreams.count == 3)
    }
}

#endif
