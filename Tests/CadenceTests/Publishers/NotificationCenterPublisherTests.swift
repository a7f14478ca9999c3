import Cadence
import Foundation
import Testing

/// `NotificationCenter.publisher(for:object:)`: Foundation's on Apple platforms, Cadence's on Linux, with the
/// behaviour OpenCombine's test suite records of Apple's (issue 17 item 1).
@Suite("NotificationCenter.Publisher")
struct NotificationCenterPublisherTests {
    private let name = Notification.Name("Cadence.NotificationCenterPublisherTests")

    @Test func notificationsArriveAgainstDemandAndThoseWithoutAreDropped() {
        let center = NotificationCenter()
        let subscriber = TestSubscriber<Notification, Never>(initialDemand: .max(2))
        center.publisher(for: name).subscribe(subscriber)
        center.post(name: name, object: nil)
        center.post(name: Notification.Name("another"), object: nil)
        center.post(name: name, object: nil)
        center.post(name: name, object: nil) // no demand left: dropped
        #expect(subscriber.values.map(\.name) == [name, name])
        subscriber.request(.max(1))
        #expect(subscriber.values.count == 2)
        center.post(name: name, object: nil)
        #expect(subscriber.values.count == 3)
        #expect(subscriber.completions.isEmpty)
    }

    @Test func anObjectSelectsTheNotificationsOfThatObject() {
        let center = NotificationCenter()
        let sender = NSObject()
        let subscriber = TestSubscriber<Notification, Never>()
        center.publisher(for: name, object: sender).subscribe(subscriber)
        center.post(name: name, object: NSObject())
        center.post(name: name, object: sender)
        #expect(subscriber.values.map { $0.object as AnyObject? === sender } == [true])
    }

    @Test func cancellingRemovesTheObserver() {
        let center = NotificationCenter()
        let subscriber = TestSubscriber<Notification, Never>()
        center.publisher(for: name).subscribe(subscriber)
        center.post(name: name, object: nil)
        subscriber.cancel()
        center.post(name: name, object: nil)
        #expect(subscriber.values.count == 1)
        subscriber.cancel() // a second cancel does nothing
    }

    @Test func aNotificationPostedWhileReceivingIsDeliveredNestedWhileDemandLasts() {
        let center = NotificationCenter()
        let posting = PostingSubscriber(center: center, name: name, times: 7)
        center.publisher(for: name).subscribe(posting)
        posting.subscription?.request(.max(3))
        center.post(name: name, object: nil)
        #expect(posting.received == 3)
    }

    @Test func publishersAreEqualForTheSameCenterNameAndObject() {
        let center = NotificationCenter()
        let object = NSObject()
        #expect(center.publisher(for: name, object: object) == center.publisher(for: name, object: object))
        #expect(center.publisher(for: name) != center.publisher(for: name, object: object))
        #expect(center.publisher(for: name) != NotificationCenter().publisher(for: name))
    }

    #if !canImport(Combine) // Cadence's description; Foundation's is the same, but not API
    @Test func theSubscriptionDescribesItself() {
        let subscriber = TestSubscriber<Notification, Never>(initialDemand: .none)
        NotificationCenter().publisher(for: name).subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "NotificationCenter Observer")
        subscriber.subscription?.request(.none) // adds nothing, does not trap
        #expect(
            subscriber.subscription.map { Mirror(reflecting: $0).children.map(\.label) }
                == ["center", "name", "object", "demand"])
    }
    #endif
}

/// Posts the notification it observes again from inside `receive(_:)`, `times` times.
private final class PostingSubscriber: Subscriber, @unchecked Sendable { // used on the test's thread only
    typealias Input = Notification
    typealias Failure = Never

    let center: NotificationCenter
    let name: Notification.Name
    var times: Int
    var received = 0
    var subscription: (any Subscription)?

    init(center: NotificationCenter, name: Notification.Name, times: Int) {
        self.center = center
        self.name = name
        self.times = times
    }

    func receive(subscription: any Subscription) { self.subscription = subscription }

    func receive(_ input: Notification) -> Subscribers.Demand {
        received += 1
        if times > 0 {
            times -= 1
            center.post(name: name, object: nil)
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}
}
