// Internal machinery, reached with @testable, which only debug builds allow.
#if DEBUG && !canImport(Combine)
@testable import CadenceCombine
import Cadence
import Testing

@Suite("ScheduledDeliveryQueue")
struct ScheduledDeliveryQueueTests {
    @Test func anEventIsDeliveredOnlyOnceItsActionHasRun() {
        var queue = ScheduledDeliveryQueue<Int>()
        queue.append(1)
        queue.append(2)
        #expect(queue.count == 2)
        #expect(!queue.isDelivering)
        #expect(queue.actionRan() == 1)
        #expect(queue.isDelivering)
        #expect(queue.deliveryEnded() == nil)
        #expect(!queue.isDelivering)
        #expect(queue.count == 1)
        #expect(queue.actionRan() == 2)
        #expect(queue.deliveryEnded() == nil)
        #expect(queue.count == 0)
    }

    @Test func anActionThatRunsDuringADeliveryLeavesItsEventToTheDeliverer() {
        var queue = ScheduledDeliveryQueue<Int>()
        queue.append(1)
        queue.append(2)
        queue.append(3)
        #expect(queue.actionRan() == 1)
        #expect(queue.actionRan() == nil) // another thread, or re-entrantly from inside the delivery of 1
        #expect(queue.actionRan() == nil)
        #expect(queue.deliveryEnded() == 2)
        #expect(queue.deliveryEnded() == 3)
        #expect(queue.deliveryEnded() == nil)
        #expect(!queue.isDelivering)
    }

    @Test func replacingEverythingMakesTheNewEventDueAtOnce() {
        var queue = ScheduledDeliveryQueue<String>()
        queue.append("a")
        queue.append("b")
        let (now, dropped) = queue.replaceAll(with: "end")
        #expect(now == "end")
        #expect(dropped.elements == ["a", "b"])
        // The dropped events' actions still run, and find nothing.
        #expect(queue.deliveryEnded() == nil)
        #expect(queue.actionRan() == nil)
        #expect(queue.actionRan() == nil)
        #expect(queue.count == 0)
    }

    @Test func replacingDuringADeliveryHandsTheNewEventToTheDeliverer() {
        var queue = ScheduledDeliveryQueue<String>()
        queue.append("a")
        queue.append("b")
        #expect(queue.actionRan() == "a")
        let (now, dropped) = queue.replaceAll(with: "end")
        #expect(now == nil)
        #expect(dropped.elements == ["b"])
        #expect(queue.deliveryEnded() == "end")
        #expect(queue.deliveryEnded() == nil)
    }

    @Test func removingEverythingLeavesLaterActionsNothing() {
        var queue = ScheduledDeliveryQueue<Int>()
        queue.append(1)
        queue.append(2)
        #expect(queue.removeAll().elements == [1, 2])
        #expect(queue.actionRan() == nil)
        #expect(queue.actionRan() == nil)
        #expect(!queue.isDelivering)
    }
}
#endif
