import Cadence
import Foundation
import Testing

@Suite("Record")
struct RecordTests {
    typealias Sut = Record<Int, TestError>

    @Test func replaysOutputsThenTheRecordedCompletion() {
        let record = Sut { recording in
            recording.receive(1)
            recording.receive(2)
            recording.receive(completion: .failure(.oops))
        }
        let subscriber = TestSubscriber<Int, TestError>()
        record.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.failure(.oops))])
        #expect(record.recording.output == [1, 2])
        #expect(record.recording.completion == .failure(.oops))
    }

    @Test func replaysToEverySubscriber() {
        let record = Sut(output: [5], completion: .finished)
        let first = TestSubscriber<Int, TestError>()
        let second = TestSubscriber<Int, TestError>()
        record.subscribe(first)
        record.subscribe(second)
        #expect(first.events == [.subscription, .value(5), .completion(.finished)])
        #expect(second.events == first.events)
    }

    @Test func emptyRecordingCompletesAtOnceWithTheEmptySubscription() {
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        Sut(output: [], completion: .failure(.other)).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.failure(.other))])
        #expect(subscriber.subscription.map { String(describing: $0) } == "Empty")
    }

    @Test func honoursDemandAndCompletesAfterTheLastOutput() {
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        Sut(output: [1, 2, 3], completion: .failure(.oops)).subscribe(subscriber)
        #expect(subscriber.values == [1])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.failure(.oops))])
    }

    @Test func cancelStopsThePlayback() {
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        Sut(output: [1, 2, 3], completion: .finished).subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.max(5))
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func descriptionIsTheOutputsThenCancelledEvents() {
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        Sut(output: [1, 2, 3], completion: .finished).subscribe(subscriber)
        let subscription = subscriber.subscription
        #expect(subscription.map { String(describing: $0) } == "[1, 2, 3]")
        let mirror = subscription.map { Mirror(reflecting: $0) }
        #expect(mirror?.children.map(\.label) == ["sequence", "completion"])
        let playground = (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription
        #expect(playground as? String == "[1, 2, 3]")
        subscriber.cancel()
        #expect(subscription.map { String(describing: $0) } == "Cancelled Events")
    }

    @Test func recordingInitializersAndCodableRoundTrip() throws {
        let recording = Sut.Recording(output: [4, 5])
        #expect(recording.completion == .finished)
        let record = Sut(recording: Sut.Recording(output: [4, 5], completion: .failure(.oops)))
        let original = Record<Int, CodableTestError>(output: [1, 2], completion: .failure(.init(code: 7)))
        let encoded = try JSONEncoder().encode(original)
        let decoded = try JSONDecoder().decode(Record<Int, CodableTestError>.self, from: encoded)
        #expect(decoded.recording.output == [1, 2])
        #expect(decoded.recording.completion == .failure(.init(code: 7)))
        let json = try JSONSerialization.jsonObject(with: encoded) as? [String: Any]
        let inner = json?["recording"] as? [String: Any]
        #expect(inner?["output"] as? [Int] == [1, 2])
        #expect(record.recording.output == [4, 5])
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func receivingAValueAfterTheCompletionTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var recording = Record<Int, Never>.Recording()
            recording.receive(completion: .finished)
            recording.receive(1)
        }
        #expect(
            result?.standardErrorText.contains(
                "Record.Recording: receive(_:) was called after the recording received its completion") == true)
    }
    #endif

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func receivingASecondCompletionTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var recording = Record<Int, Never>.Recording(output: [1])
            recording.receive(completion: .finished)
        }
        #expect(
            result?.standardErrorText.contains(
                "Record.Recording: receive(completion:) was called on a recording that is already complete") == true)
    }
    #endif
}

/// A failure type that can be encoded, to test `Record`'s `Codable` conformance.
private struct CodableTestError: Error, Codable, Equatable {
    let code: Int
}
