import Cadence
import Dispatch
import Testing

@Suite("Publishers.Autoconnect")
struct AutoconnectTests {
    typealias Connectable = FlatteningTestConnectable<Int, TestError>

    @Test func connectsOnTheFirstSubscriberOnly() {
        let connectable = Connectable()
        let autoconnect = connectable.autoconnect()
        #expect(connectable.connectCount == 0)
        let first = TestSubscriber<Int, TestError>()
        autoconnect.subscribe(first)
        #expect(connectable.connectCount == 1)
        let second = TestSubscriber<Int, TestError>()
        autoconnect.subscribe(second)
        #expect(connectable.connectCount == 1)
        #expect(connectable.publisher.subscriptions.count == 2)
        connectable.publisher.send(1)
        #expect(first.values == [1])
        #expect(second.values == [1])
    }

    @Test func disconnectsWhenTheLastSubscriberCancels() {
        let connectable = Connectable()
        let autoconnect = connectable.autoconnect()
        let first = TestSubscriber<Int, TestError>()
        let second = TestSubscriber<Int, TestError>()
        autoconnect.subscribe(first)
        autoconnect.subscribe(second)
        first.cancel()
        first.cancel() // counted out once, passed on twice (as in Combine)
        #expect(connectable.disconnectCount == 0)
        #expect(connectable.publisher.subscriptions[0].cancelCount == 2)
        second.cancel()
        #expect(connectable.disconnectCount == 1)
        #expect(connectable.publisher.subscriptions[1].cancelCount == 1)
        autoconnect.subscribe(TestSubscriber<Int, TestError>())
        #expect(connectable.connectCount == 2)
    }

    @Test func completionPassesThroughWithoutDisconnecting() {
        let connectable = Connectable()
        let subscriber = TestSubscriber<Int, TestError>()
        connectable.autoconnect().subscribe(subscriber)
        connectable.publisher.send(3)
        connectable.publisher.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value(3), .completion(.failure(.oops))])
        #expect(connectable.disconnectCount == 0)
    }

    @Test func demandPassesStraightThrough() {
        let connectable = Connectable()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(2), onValue: { _ in .max(1) })
        connectable.autoconnect().subscribe(subscriber)
        #expect(connectable.publisher.subscription.requests == [.max(2)])
        #expect(connectable.publisher.send(1) == .max(1))
        subscriber.request(.max(4))
        #expect(connectable.publisher.subscription.requests == [.max(2), .max(4)])
    }

    @Test func sharesOneUpstreamThroughMakeConnectable() {
        let upstream = DrivenPublisher<Int, Never>()
        let autoconnect = upstream.makeConnectable().autoconnect()
        let first = TestSubscriber<Int, Never>()
        let second = TestSubscriber<Int, Never>()
        autoconnect.subscribe(first)
        autoconnect.subscribe(second)
        #expect(upstream.subscriptions.count == 1)
        upstream.send(1)
        #expect(first.values == [1])
        #expect(second.values == [1])
        first.cancel()
        second.cancel()
        #expect(upstream.subscription.cancelCount == 1)
    }

    @Test func subscribersComingAndGoingOnManyThreadsLeaveItDisconnected() {
        let connectable = Connectable()
        let autoconnect = FlatteningThreadSafeBox(value: connectable.autoconnect())
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<200 {
                let subscriber = TestSubscriber<Int, TestError>()
                autoconnect.value.subscribe(subscriber)
                subscriber.cancel()
            }
        }
        #expect(connectable.connectCount >= 1)
        #expect(connectable.disconnectCount == connectable.connectCount)
        #expect(connectable.publisher.subscriptions.count == 800)
        #expect(connectable.publisher.subscriptions.allSatisfy { $0.cancelCount == 1 })
    }

    @Test func descriptions() throws {
        let connectable = Connectable()
        let autoconnect = connectable.autoconnect()
        #expect(autoconnect.upstream === connectable)
        let subscriber = TestSubscriber<Int, TestError>()
        autoconnect.subscribe(subscriber)
        // The downstream sees the upstream's own subscription, by its own name.
        let subscription = try #require(subscriber.subscription)
        #expect((subscription as? any CustomStringConvertible)?.description == "TestSubscription")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "TestSubscription")
        #expect(!(subscription is any CustomReflectable))
        #expect(connectable.publisher.subscription.downstream.description == "Autoconnect")
    }
}
