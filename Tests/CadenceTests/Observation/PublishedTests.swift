import Cadence
import Testing

@Suite("Published")
struct PublishedTests {
    final class Model {
        @Published var count = 0
        @Published var name: String

        init(name: String = "") {
            _name = Published(initialValue: name)
        }
    }

    @Test func deliversTheInitialValueThenEveryChange() {
        let model = Model()
        let subscriber = TestSubscriber<Int, Never>()
        model.$count.subscribe(subscriber)
        model.count = 1
        model.count += 2
        #expect(subscriber.events == [.subscription, .value(0), .value(1), .value(3)])
        #expect(model.count == 3)
    }

    @Test func initialValueAndWrappedValueInitialisersAgree() {
        let model = Model(name: "start")
        #expect(model.name == "start")
        let subscriber = TestSubscriber<String, Never>()
        model.$name.subscribe(subscriber)
        #expect(subscriber.values == ["start"])
    }

    @Test func subscribersSeeTheNewValueBeforeThePropertyStoresIt() {
        let model = Model()
        nonisolated(unsafe) var seen: [String] = []
        let cancellable = model.$count.sink { value in
            seen.append("received \(value), property \(model.count)")
        }
        model.count = 4
        model.count = 2
        #expect(seen == ["received 0, property 0", "received 4, property 0", "received 2, property 4"])
        #expect(model.count == 2)
        withExtendedLifetime(cancellable) {}
    }

    @Test func demandIsHonouredAndAMissedValueComesAtTheNextRequest() {
        let model = Model()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        model.$count.subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(2))
        #expect(subscriber.values == [0])
        model.count = 1
        model.count = 3
        model.count = 6
        #expect(subscriber.values == [0, 1])
        subscriber.request(.max(10))
        #expect(subscriber.values == [0, 1, 6])
        model.count = 42
        #expect(subscriber.values == [0, 1, 6, 42])
    }

    @Test func demandReturnedFromReceiveAddsUp() {
        let model = Model()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2)) { .max($0) }
        model.$count.subscribe(subscriber)
        #expect(subscriber.values == [0])
        model.count = 1
        model.count = 2
        model.count = 0
        model.count = 0
        model.count = 0
        #expect(subscriber.values == [0, 1, 2, 0, 0])
    }

    @Test func cancelStopsDeliveryAndReleasesTheSubscriber() {
        let model = Model()
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        var subscription: (any Subscription)?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            model.$count.subscribe(subscriber)
            subscription = subscriber.subscription
            subscriber.releaseSubscription()
            model.count = 1
            #expect(subscriber.values == [0, 1])
        }
        subscription?.cancel()
        subscription?.cancel()
        subscription?.request(.max(3))
        #expect(weakSubscriber == nil)
        model.count = 2
        #expect(model.count == 2)
    }

    @Test func cancelledSubscriberGetsNothingMore() {
        let model = Model()
        let kept = TestSubscriber<Int, Never>()
        let cancelled = TestSubscriber<Int, Never>()
        model.$count.subscribe(kept)
        model.$count.subscribe(cancelled)
        cancelled.cancel()
        model.count = -1
        #expect(kept.values == [0, -1])
        #expect(cancelled.events == [.subscription, .value(0)])
    }

    @Test func projectedValueSetterHasNoEffect() {
        let first = Model()
        let second = Model()
        second.count = 2
        first.$count = second.$count
        #expect(first.count == 0)
        #expect(second.count == 2)
        let subscriber = TestSubscriber<Int, Never>()
        first.$count.subscribe(subscriber)
        #expect(subscriber.values == [0])
    }

    @Test func assignToPublishedRepublishesWithoutACancellable() {
        let upstream = DrivenPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        do {
            let model = Model()
            upstream.assign(to: &model.$count)
            #expect(upstream.subscription.requests == [.unlimited])
            model.$count.subscribe(subscriber)
            upstream.send(1)
            #expect(model.count == 1)
            #expect(subscriber.events == [.subscription])
            subscriber.request(.max(3))
            upstream.send(2)
            upstream.send(3)
            upstream.send(4)
            #expect(subscriber.values == [1, 2, 3])
            #expect(model.count == 4)
            upstream.send(completion: .finished)
            #expect(subscriber.completions == [])
            subscriber.cancel()
            #expect(!upstream.subscription.isCancelled)
        }
        #expect(upstream.subscription.cancelCount == 1)
    }

    @Test func describesItsSubscriptionAsPublishedSubject() throws {
        let model = Model()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        model.$count.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "PublishedSubject")
        #expect(
            (subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "PublishedSubject")
        #expect(subjectsMirrorLabels(of: subscription) == ["parent", "downstream", "demand", "subject"])
        #expect(Mirror(reflecting: subscription).descendant("demand") as? Subscribers.Demand == Subscribers.Demand.none)
    }

    @Test func reentrantSetFromASinkIsDelivered() {
        let model = Model()
        let subscriber = TestSubscriber<Int, Never>()
        let cancellable = model.$count.sink { value in
            if value == 1 { model.count = 2 }
        }
        model.$count.subscribe(subscriber)
        model.count = 1
        #expect(subscriber.values == [0, 2, 1])
        #expect(model.count == 1) // the outer set stores last, as in Combine
        withExtendedLifetime(cancellable) {}
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Box {
                @Published var value = 0
            }
            let box = Box()
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            box.$value.subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "PublishedSubject")
    }
    #endif
}
