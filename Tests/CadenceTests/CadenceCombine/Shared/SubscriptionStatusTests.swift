// Internal machinery, reached with @testable, which only debug builds allow.
#if DEBUG && !canImport(Combine)
@testable import CadenceCombine
import Cadence
import Testing

@Suite("SubscriptionStatus")
struct SubscriptionStatusTests {
    @Test func theFirstSubscriptionIsKeptAndHandsBackTheContext() {
        var status = SubscriptionStatus<String>.awaitingSubscription("downstream")
        #expect(status.context == "downstream")
        #expect(status.subscription == nil)
        #expect(status.isSubscribed == false)
        #expect(status.isTerminal == false)

        let first = DedupeIdleSubscription()
        let context = status.receive(subscription: first)
        #expect(context == "downstream")
        #expect(status.isSubscribed)
        #expect(status.subscription?.combineIdentifier == first.combineIdentifier)
        #expect(status.subscribed?.context == "downstream")
        #expect(status.context == "downstream")
    }

    @Test func aSecondSubscriptionIsRefusedAndTheFirstKept() {
        var status = SubscriptionStatus<String>.awaitingSubscription("downstream")
        let first = DedupeIdleSubscription()
        _ = status.receive(subscription: first)
        let second = status.receive(subscription: DedupeIdleSubscription())
        #expect(second == nil)
        #expect(status.subscription?.combineIdentifier == first.combineIdentifier)
    }

    @Test func completingHandsBackTheSubscriptionAndContextOnce() {
        var status = SubscriptionStatus<String>.awaitingSubscription("downstream")
        let upstream = DedupeIdleSubscription()
        _ = status.receive(subscription: upstream)

        let ended = status.complete()
        #expect(ended?.subscription.combineIdentifier == upstream.combineIdentifier)
        #expect(ended?.context == "downstream")
        #expect(status.isTerminal)
        #expect(status.context == nil)
        #expect(status.subscription == nil)
        let endedAgain = status.complete()
        #expect(endedAgain == nil)
    }

    @Test func completingBeforeTheSubscriptionArrivedChangesNothing() {
        var status = SubscriptionStatus<String>.awaitingSubscription("downstream")
        let ended = status.complete()
        #expect(ended == nil)
        #expect(status.isTerminal == false)
        #expect(status.context == "downstream")
        let context = status.receive(subscription: DedupeIdleSubscription())
        #expect(context == "downstream")
    }

    @Test func terminatingHandsBackWhatItWas() {
        var awaiting = SubscriptionStatus<String>.awaitingSubscription("downstream")
        let wasAwaiting = awaiting.terminate()
        #expect(wasAwaiting.context == "downstream")
        #expect(wasAwaiting.subscription == nil)
        #expect(awaiting.isTerminal)

        var subscribed = SubscriptionStatus<String>.awaitingSubscription("downstream")
        let upstream = DedupeIdleSubscription()
        _ = subscribed.receive(subscription: upstream)
        let wasSubscribed = subscribed.terminate()
        #expect(wasSubscribed.subscription?.combineIdentifier == upstream.combineIdentifier)
        #expect(wasSubscribed.context == "downstream")
        #expect(subscribed.isTerminal)

        let wasTerminal = subscribed.terminate()
        #expect(wasTerminal.isTerminal)
        #expect(wasTerminal.context == nil)
    }

    @Test func noSubscriptionIsKeptOnceTerminal() {
        var status = SubscriptionStatus<Void>.awaitingSubscription(())
        _ = status.terminate()
        let context: Void? = status.receive(subscription: DedupeIdleSubscription())
        #expect(context == nil)
        #expect(status.subscription == nil)
        #expect(status.isTerminal)
    }

    @Test func theContextIsReleasedWhenTheStatusEnds() {
        final class Downstream {}
        weak var released: Downstream?
        var status: SubscriptionStatus<Downstream>
        do {
            let downstream = Downstream()
            released = downstream
            status = .awaitingSubscription(downstream)
        }
        _ = status.receive(subscription: DedupeIdleSubscription())
        #expect(released != nil)
        do {
            let ended = status.complete()
            #expect(ended != nil)
            #expect(released != nil) // held by what `complete()` handed back
        }
        #expect(released == nil)
    }
}

#endif
