import Cadence
import Testing

@Suite("ObservableObjectPublisher")
struct ObservableObjectPublisherTests {
    @Test func signalsStartAtTheFirstRequestAndIgnoreTheAmount() {
        let publisher = ObservableObjectPublisher()
        let subscriber = TestSubscriber<Void, Never>(initialDemand: .none)
        publisher.subscribe(subscriber)
        publisher.send()
        #expect(subscriber.events.count == 1)
        subscriber.request(.max(1))
        publisher.send()
        publisher.send()
        publisher.send()
        #expect(subscriber.events.count == 4)
    }

    @Test func everyActiveSubscriberIsSignalled() {
        let publisher = ObservableObjectPublisher()
        let first = TestSubscriber<Void, Never>()
        let second = TestSubscriber<Void, Never>()
        publisher.subscribe(first)
        publisher.send()
        publisher.subscribe(second)
        publisher.send()
        #expect(first.events.count == 3)
        #expect(second.events.count == 2)
    }

    @Test func cancelStopsSignalsAndReleasesTheSubscriber() {
        let publisher = ObservableObjectPublisher()
        weak var weakSubscriber: TestSubscriber<Void, Never>?
        var subscription: (any Subscription)?
        do {
            let subscriber = TestSubscriber<Void, Never>()
            weakSubscriber = subscriber
            publisher.subscribe(subscriber)
            subscription = subscriber.subscription
            subscriber.releaseSubscription()
            publisher.send()
            #expect(subscriber.events.count == 2)
        }
        subscription?.cancel()
        publisher.send()
        #expect(weakSubscriber == nil)
    }

    @Test func sinkWorksAndNeverCompletes() {
        let publisher = ObservableObjectPublisher()
        nonisolated(unsafe) var signals = 0
        let cancellable = publisher.sink { signals += 1 }
        publisher.send()
        publisher.send()
        cancellable.cancel()
        publisher.send()
        #expect(signals == 2)
    }

    @Test func describesItsSubscription() throws {
        let publisher = ObservableObjectPublisher()
        let subscriber = TestSubscriber<Void, Never>()
        publisher.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "ObservableObjectPublisher")
        #expect(
            (subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "ObservableObjectPublisher")
        #expect(subjectsMirrorLabels(of: subscription) == ["downstream"])
    }

    /// As in Apple's Combine, `request(.max(0))` is no misuse here: like any request, whatever its amount, it starts
    /// the signals.
    @Test func requestingNoneStartsTheSignalsLikeAnyRequest() {
        let publisher = ObservableObjectPublisher()
        let subscriber = TestSubscriber<Void, Never>(initialDemand: .none)
        publisher.subscribe(subscriber)
        publisher.send()
        #expect(subscriber.events.count == 1) // the subscription only
        subscriber.request(.none)
        publisher.send()
        #expect(subscriber.events.count == 2)
    }
}
