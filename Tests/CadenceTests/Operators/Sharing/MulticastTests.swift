import Cadence
import Testing

@Suite("Publishers.Multicast")
struct MulticastTests {
    typealias Source = DrivenPublisher<Int, TestError>
    typealias Relay = PassthroughSubject<Int, TestError>

    @Test func connectSubscribesTheUpstreamOnceForEverySubscriber() {
        let upstream = Source()
        let multicast = upstream.multicast { Relay() }
        let first = TestSubscriber<Int, TestError>()
        let second = TestSubscriber<Int, TestError>()
        multicast.subscribe(first)
        multicast.subscribe(second)
        #expect(upstream.subscriptions.isEmpty)
        let connection = multicast.connect()
        #expect(upstream.subscriptions.count == 1)
        #expect(upstream.subscription.requests == [.unlimited])
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        let expected: [Event<Int, TestError>] = [.subscription, .value(1), .value(2), .completion(.finished)]
        #expect(first.events == expected)
        #expect(second.events == expected)
        withExtendedLifetime(connection) {}
    }

    @Test func theSubjectIsCreatedOnceOnFirstUse() {
        let upstream = Source()
        let made = MulticastTestsCounter()
        let multicast = upstream.multicast { () -> Relay in
            made.increment()
            return Relay()
        }
        #expect(made.count == 0)
        multicast.subscribe(TestSubscriber<Int, TestError>())
        #expect(made.count == 1)
        let connection = multicast.connect()
        multicast.subscribe(TestSubscriber<Int, TestError>())
        #expect(made.count == 1)
        withExtendedLifetime(connection) {}
    }

    @Test func multicastSubjectUsesTheGivenSubject() {
        let subject = Relay()
        let multicast = Source().multicast(subject: subject)
        let subscriber = TestSubscriber<Int, TestError>()
        multicast.subscribe(subscriber)
        subject.send(5)
        #expect(subscriber.values == [5])
    }

    @Test func failureReachesEverySubscriber() {
        let upstream = Source()
        let multicast = upstream.multicast { Relay() }
        let first = TestSubscriber<Int, TestError>()
        let second = TestSubscriber<Int, TestError>()
        multicast.subscribe(first)
        multicast.subscribe(second)
        let connection = multicast.connect()
        upstream.send(completion: .failure(.oops))
        #expect(first.events == [.subscription, .completion(.failure(.oops))])
        #expect(second.events == [.subscription, .completion(.failure(.oops))])
        withExtendedLifetime(connection) {}
    }

    @Test func eachSubscribersDemandIsHonoured() {
        let upstream = Source()
        let multicast = upstream.multicast { Relay() }
        let limited = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        let unlimited = TestSubscriber<Int, TestError>()
        multicast.subscribe(limited)
        multicast.subscribe(unlimited)
        let connection = multicast.connect()
        upstream.send(1)
        upstream.send(2)
        #expect(limited.values == [1])
        #expect(unlimited.values == [1, 2])
        limited.request(.max(1))
        upstream.send(3)
        #expect(limited.values == [1, 3])
        withExtendedLifetime(connection) {}
    }

    @Test func demandReturnedByASubscriberIsHonoured() {
        let upstream = Source()
        let multicast = upstream.multicast { Relay() }
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1), onValue: { $0 < 3 ? .max(1) : .none })
        multicast.subscribe(subscriber)
        let connection = multicast.connect()
        for value in 1...5 {
            upstream.send(value)
        }
        #expect(subscriber.values == [1, 2, 3])
        withExtendedLifetime(connection) {}
    }

    @Test func cancellingTheConnectionCancelsTheUpstream() {
        let upstream = Source()
        let multicast = upstream.multicast { Relay() }
        let subscriber = TestSubscriber<Int, TestError>()
        multicast.subscribe(subscriber)
        let connection = multicast.connect()
        connection.cancel()
        #expect(upstream.subscription.cancelCount == 1)
        upstream.send(1)
        #expect(subscriber.values == [])
    }

    @Test func connectingTwiceSubscribesTwice() {
        let upstream = Source()
        let multicast = upstream.multicast { Relay() }
        _ = multicast.connect()
        _ = multicast.connect()
        #expect(upstream.subscriptions.count == 2)
    }

    @Test func cancelStopsOneSubscriberOnly() {
        let upstream = Source()
        let multicast = upstream.multicast { Relay() }
        let leaving = TestSubscriber<Int, TestError>()
        let staying = TestSubscriber<Int, TestError>()
        multicast.subscribe(leaving)
        multicast.subscribe(staying)
        let connection = multicast.connect()
        upstream.send(1)
        leaving.cancel()
        leaving.cancel()
        upstream.send(2)
        #expect(leaving.values == [1])
        #expect(staying.values == [1, 2])
        #expect(!upstream.subscription.isCancelled)
        withExtendedLifetime(connection) {}
    }

    @Test func descriptionsNameMulticast() throws {
        let multicast = Source().multicast { Relay() }
        let subscriber = TestSubscriber<Int, TestError>()
        multicast.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect((subscription as? any CustomStringConvertible)?.description == "Multicast")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "Multicast")
        let mirror = try #require((subscription as? any CustomReflectable)?.customMirror)
        #expect(mirror.children.isEmpty)
    }

    @Test func theDemandReturnedForAValueIsRequestedFromTheSubject() {
        let subject = MulticastTestsRecordingSubject()
        let multicast = Source().multicast(subject: subject)
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(2), onValue: { .max($0) })
        multicast.subscribe(subscriber)
        #expect(subject.publisher.send(3) == .none)
        #expect(subject.publisher.subscription.requests == [.max(2), .max(3)])
        #expect(subscriber.events == [.subscription, .value(3)])
    }

    @Test func aZeroRequestIsPassedToTheSubject() {
        let subject = MulticastTestsRecordingSubject()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        Source().multicast(subject: subject).subscribe(subscriber)
        subscriber.request(.none)
        #expect(subject.publisher.subscription.requests == [.none])
    }
}

/// A subject that hands its subscribers a `DrivenPublisher`'s subscriptions, so a test sees what they request.
final class MulticastTestsRecordingSubject: Subject {
    typealias Output = Int
    typealias Failure = TestError

    let publisher = DrivenPublisher<Int, TestError>()

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
        publisher.subscribe(subscriber)
    }

    func send(_ value: Int) { publisher.send(value) }

    func send(completion: Subscribers.Completion<TestError>) { publisher.send(completion: completion) }

    func send(subscription: any Subscription) { subscription.request(.unlimited) }
}

/// Counts calls, from any thread.
final class MulticastTestsCounter: @unchecked Sendable {
    // `lock` guards `value`.
    private let lock = TestLock()
    private var value = 0

    func increment() { lock.withLock { value += 1 } }

    var count: Int { lock.withLock { value } }
}
