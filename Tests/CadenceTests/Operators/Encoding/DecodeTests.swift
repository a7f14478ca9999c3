import Cadence
import Foundation
import Testing

private struct Point: Codable, Equatable {
    var x: Int
    var y: Int
}

@Suite("Publishers.Decode")
struct DecodeTests {
    private func json(_ text: String) -> Data { Data(text.utf8) }

    @Test func decodesEveryValue() {
        let upstream = DrivenPublisher<Data, TestError>()
        let subscriber = TestSubscriber<Point, any Error>()
        upstream.decode(type: Point.self, decoder: JSONDecoder()).subscribe(subscriber)
        upstream.send(json(#"{"x":1,"y":2}"#))
        upstream.send(json(#"{"x":3,"y":4}"#))
        upstream.send(completion: .finished)
        #expect(subscriber.values == [Point(x: 1, y: 2), Point(x: 3, y: 4)])
        #expect(subscriber.completions.count == 1)
        if case .finished? = subscriber.completions.first {} else { Issue.record("expected .finished") }
    }

    @Test func passesDemandThrough() {
        let upstream = DrivenPublisher<Data, Never>()
        let subscriber = TestSubscriber<Point, any Error>(initialDemand: .max(1)) { _ in .max(1) }
        upstream.decode(type: Point.self, decoder: JSONDecoder()).subscribe(subscriber)
        #expect(upstream.subscription.requests == [.max(1)])
        #expect(upstream.send(json(#"{"x":0,"y":0}"#)) == .max(1))
        subscriber.request(.max(2))
        #expect(upstream.subscription.requests == [.max(1), .max(2)])
    }

    @Test func aDecodingErrorCancelsUpstreamAndFailsWithIt() {
        let upstream = DrivenPublisher<Data, Never>()
        let subscriber = TestSubscriber<Point, any Error>()
        upstream.decode(type: Point.self, decoder: JSONDecoder()).subscribe(subscriber)
        upstream.send(json(#"{"x":1}"#))
        #expect(upstream.subscription.isCancelled)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completions.count == 1)
        if case .failure(let error)? = subscriber.completions.first,
            case .keyNotFound(let key, _)? = error as? DecodingError
        {
            #expect(key.stringValue == "y")
        } else {
            Issue.record("expected DecodingError.keyNotFound, got \(subscriber.completions)")
        }
    }

    @Test func upstreamFailureIsForwarded() {
        let upstream = DrivenPublisher<Data, TestError>()
        let subscriber = TestSubscriber<Point, any Error>()
        upstream.decode(type: Point.self, decoder: JSONDecoder()).subscribe(subscriber)
        upstream.send(completion: .failure(.oops))
        if case .failure(let error)? = subscriber.completions.first {
            #expect(error as? TestError == .oops)
        } else {
            Issue.record("expected the upstream failure")
        }
    }

    @Test func cancelPropagatesAndStopsDelivery() {
        let upstream = DrivenPublisher<Data, Never>()
        let subscriber = TestSubscriber<Point, any Error>()
        upstream.decode(type: Point.self, decoder: JSONDecoder()).subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.subscription.cancelCount == 1)
        _ = upstream.subscription.downstream.receive(json(#"{"x":1,"y":1}"#))
        #expect(subscriber.values.isEmpty)
    }

    @Test func description() {
        let upstream = DrivenPublisher<Data, Never>()
        let subscriber = TestSubscriber<Point, any Error>(initialDemand: .none)
        upstream.decode(type: Point.self, decoder: JSONDecoder()).subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "Decode")
    }

    /// As Combine's `decode` does, a zero demand goes to the upstream as it is.
    @Test func aZeroDemandIsPassedOn() {
        let upstream = DrivenPublisher<Data, Never>()
        let subscriber = TestSubscriber<Point, any Error>(initialDemand: .none)
        upstream.decode(type: Point.self, decoder: JSONDecoder()).subscribe(subscriber)
        subscriber.request(.none)
        #expect(upstream.subscription.requests == [.none])
    }
}
