import Cadence
import Testing

@Suite("Publishers.MakeConnectable")
struct MakeConnectableTests {
    typealias Source = DrivenPublisher<Int, Never>

    @Test func deliversNothingUntilConnected() {
        let upstream = Source()
        let connectable = upstream.makeConnectable()
        let first = TestSubscriber<Int, Never>()
        let second = TestSubscriber<Int, Never>()
        connectable.subscribe(first)
        connectable.subscribe(second)
        #expect(upstream.subscriptions.isEmpty)
        let connection = connectable.connect()
        #expect(upstream.subscriptions.count == 1)
        #expect(upstream.subscription.requests == [.unlimited])
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(first.events == [.subscription, .value(1), .completion(.finished)])
        #expect(second.events == [.subscription, .value(1), .completion(.finished)])
        withExtendedLifetime(connection) {}
    }

    @Test func demandIsHonouredPerSubscriber() {
        let upstream = Source()
        let connectable = upstream.makeConnectable()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        connectable.subscribe(subscriber)
        let connection = connectable.connect()
        upstream.send(1)
        upstream.send(2)
        #expect(subscriber.values == [1])
        withExtendedLifetime(connection) {}
    }

    @Test func cancellingTheConnectionCancelsTheUpstream() {
        let upstream = Source()
        let connectable = upstream.makeConnectable()
        let subscriber = TestSubscriber<Int, Never>()
        connectable.subscribe(subscriber)
        connectable.connect().cancel()
        #expect(upstream.subscription.cancelCount == 1)
    }

    @Test func cancelStopsTheSubscriber() {
        let upstream = Source()
        let connectable = upstream.makeConnectable()
        let subscriber = TestSubscriber<Int, Never>()
        connectable.subscribe(subscriber)
        let connection = connectable.connect()
        subscriber.cancel()
        upstream.send(1)
        #expect(subscriber.events == [.subscription])
        #expect(!upstream.subscription.isCancelled)
        withExtendedLifetime(connection) {}
    }

    @Test func theSubscriptionIsMulticasts() throws {
        let subscriber = TestSubscriber<Int, Never>()
        Source().makeConnectable().subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect((subscription as? any CustomStringConvertible)?.description == "Multicast")
    }
}
