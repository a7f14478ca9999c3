import Cadence
import Foundation
import Testing

/// A value whose encoding fails when `fails` is set.
private struct Item: Codable, Equatable {
    var name: String
    var fails = false

    func encode(to encoder: any Encoder) throws {
        if fails { throw TestError.other }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(fails, forKey: .fails)
    }
}

@Suite("Publishers.Encode")
struct EncodeTests {
    private func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test func encodesEveryValue() {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let upstream = DrivenPublisher<Item, TestError>()
        let subscriber = TestSubscriber<Data, any Error>()
        upstream.encode(encoder: encoder).subscribe(subscriber)
        upstream.send(Item(name: "a"))
        upstream.send(Item(name: "b"))
        upstream.send(completion: .finished)
        #expect(subscriber.values.map(text) == [#"{"fails":false,"name":"a"}"#, #"{"fails":false,"name":"b"}"#])
        #expect(subscriber.completions.count == 1)
        if case .finished? = subscriber.completions.first {} else { Issue.record("expected .finished") }
    }

    @Test func passesDemandThrough() {
        let upstream = DrivenPublisher<Item, Never>()
        let subscriber = TestSubscriber<Data, any Error>(initialDemand: .max(1)) { _ in .max(2) }
        upstream.encode(encoder: JSONEncoder()).subscribe(subscriber)
        #expect(upstream.subscription.requests == [.max(1)])
        #expect(upstream.send(Item(name: "x")) == .max(2))
        subscriber.request(.max(3))
        #expect(upstream.subscription.requests == [.max(1), .max(3)])
        #expect(subscriber.values.count == 1)
    }

    @Test func anEncodingErrorCancelsUpstreamAndFails() {
        let upstream = DrivenPublisher<Item, Never>()
        let subscriber = TestSubscriber<Data, any Error>()
        upstream.encode(encoder: JSONEncoder()).subscribe(subscriber)
        upstream.send(Item(name: "bad", fails: true))
        #expect(upstream.subscription.isCancelled)
        #expect(subscriber.completions.count == 1)
        if case .failure(let error)? = subscriber.completions.first {
            #expect(error as? TestError == .other)
        } else {
            Issue.record("expected the encoding error")
        }
        upstream.subscription.downstream.receive(completion: .finished)
        #expect(subscriber.completions.count == 1)
        #expect(subscriber.values.isEmpty)
    }

    @Test func upstreamFailureIsForwarded() {
        let upstream = DrivenPublisher<Item, TestError>()
        let subscriber = TestSubscriber<Data, any Error>()
        upstream.encode(encoder: JSONEncoder()).subscribe(subscriber)
        upstream.send(completion: .failure(.oops))
        if case .failure(let error)? = subscriber.completions.first {
            #expect(error as? TestError == .oops)
        } else {
            Issue.record("expected the upstream failure")
        }
    }

    @Test func cancelPropagatesAndStopsDelivery() {
        let upstream = DrivenPublisher<Item, Never>()
        let subscriber = TestSubscriber<Data, any Error>()
        upstream.encode(encoder: JSONEncoder()).subscribe(subscriber)
        subscriber.cancel()
        subscriber.cancel()
        #expect(upstream.subscription.cancelCount == 1)
        #expect(upstream.subscription.downstream.receive(Item(name: "late")) == .none)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completions.isEmpty)
    }

    /// As in Combine: the subscription keeps its subscriber until the upstream lets go of it.
    @Test func cancelKeepsTheSubscriberUntilTheUpstreamLetsGo() {
        expectCancelKeepsTheSubscriberUntilTheUpstreamLetsGo { upstream, capture in
            upstream.encode(encoder: JSONEncoder()).map { data in withExtendedLifetime(capture) { data } }
        }
    }

    /// As in Combine, a cancel before the upstream's subscription arrived is ignored: the subscription is then taken.
    @Test func cancelBeforeTheSubscriptionIsIgnored() throws {
        let outcome = try cancelBeforeTheSubscription { $0.encode(encoder: JSONEncoder()) }
        #expect(outcome.upstreamCancels == 0)
        #expect(outcome.downstreamSubscriptions == 1)
    }

    @Test func description() {
        let upstream = DrivenPublisher<Item, Never>()
        let subscriber = TestSubscriber<Data, any Error>(initialDemand: .none)
        upstream.encode(encoder: JSONEncoder()).subscribe(subscriber)
        let subscription = subscriber.subscription
        #expect(subscription.map { String(describing: $0) } == "Encode")
        #expect((subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Encode")
        let mirror = subscription.map { Mirror(reflecting: $0) }
        #expect(mirror?.children.map(\.label) == ["downstream", "finished", "upstreamSubscription"])
    }

    @Test func propertyListEncoderConforms() throws {
        let subscriber = TestSubscriber<Data, any Error>()
        Just(Item(name: "p")).encode(encoder: PropertyListEncoder()).subscribe(subscriber)
        let data = try #require(subscriber.values.first)
        #expect(try PropertyListDecoder().decode(Item.self, from: data) == Item(name: "p"))
    }
}
