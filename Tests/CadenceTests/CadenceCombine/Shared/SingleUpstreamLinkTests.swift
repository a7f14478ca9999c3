// Internal machinery, reached with @testable, which only debug builds allow.
#if DEBUG && !canImport(Combine)
@testable import CadenceCombine
import Cadence
import Testing

@Suite("SingleUpstreamLink")
struct SingleUpstreamLinkTests {
    @Test func theFirstSubscriptionIsKeptUntilTheLinkCloses() {
        var link = SingleUpstreamLink.awaiting
        #expect(link.isAwaiting)
        #expect(link.subscription == nil)
        let first = DedupeIdleSubscription()
        let attachedFirst = link.attach(first)
        let attachedSecond = link.attach(DedupeIdleSubscription())
        #expect(attachedFirst)
        #expect(attachedSecond == false)
        #expect(link.isAwaiting == false)
        #expect(link.subscription?.combineIdentifier == first.combineIdentifier)
        let closed = link.close()
        #expect(closed?.combineIdentifier == first.combineIdentifier)
        #expect(link.subscription == nil)
        let closedAgain = link.close()
        #expect(closedAgain == nil)
        let attachedAfterClose = link.attach(DedupeIdleSubscription())
        #expect(attachedAfterClose == false)
    }
}

#endif
