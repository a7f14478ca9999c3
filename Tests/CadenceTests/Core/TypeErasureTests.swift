import Cadence
import Testing

@Suite("AnyPublisher and AnySubscriber")
struct TypeErasureTests {
    @Test func anyPublisherForwardsEverything() {
        let upstream = DrivenPublisher<Int, TestError>()
        let erased: AnyPublisher<Int, TestError> = upstream.eraseToAnyPublisher()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        erased.subscribe(subscriber)

        #expect(upstream.subscription.requests == [.max(1)])
        upstream.send(7)
        upstream.send(completion: .failure(.other))
        #expect(subscriber.events == [.subscription, .value(7), .completion(.failure(.other))])
        #expect(erased.description == "AnyPublisher")
    }

    @Test func erasingTwiceStillDelivers() {
        let twice = AnyPublisher(Just(3).eraseToAnyPublisher())
        let subscriber = TestSubscriber<Int, Never>()
        twice.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(3), .completion(.finished)])
    }

    @Test func anySubscriberForwardsToTheWrappedSubscriber() {
        let inner = TestSubscriber<Int, TestError>(initialDemand: .none) { _ in .max(3) }
        let erased = AnySubscriber(inner)
        #expect(erased.combineIdentifier == inner.combineIdentifier)
        #expect(AnySubscriber(erased).combineIdentifier == inner.combineIdentifier)

        erased.receive(subscription: Subscriptions.empty)
        #expect(erased.receive(5) == .max(3))
        erased.receive(completion: .finished)
        #expect(inner.events == [.subscription, .value(5), .completion(.finished)])
    }

    @Test func anySubscriberFromClosures() {
        var log: [String] = []
        let erased = AnySubscriber<Int, TestError>(
            receiveSubscription: { log.append("subscription \($0)") },
            receiveValue: {
                log.append("value \($0)")
                return .max(1)
            },
            receiveCompletion: { log.append("completion \($0)") })
        erased.receive(subscription: Subscriptions.empty)
        #expect(erased.receive(9) == .max(1))
        erased.receive(completion: .failure(.oops))
        #expect(log == ["subscription Empty", "value 9", "completion failure(oops)"])
        #expect(erased.description == "Anonymous AnySubscriber")
        #expect(AnySubscriber<Int, Never>().receive(1) == .none)
    }

    @Test func anySubscriberDescribesTheWrappedSubscriber() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(AnySubscriber(sink).description == "Sink")
    }
}

@Suite("CombineIdentifier and Subscriptions.empty")
struct IdentifierTests {
    final class Object {}

    @Test func freshIdentifiersAreUnique() {
        let identifiers = (0..<1000).map { _ in CombineIdentifier() }
        #expect(Set(identifiers).count == 1000)
        #expect(identifiers[0].description.hasPrefix("0x"))
    }

    @Test func identifiersOfTheSameObjectAreEqual() {
        let object = Object()
        #expect(CombineIdentifier(object) == CombineIdentifier(object))
        #expect(CombineIdentifier(object) != CombineIdentifier(Object()))
        // As in Combine, it is the object's address.
        #expect(
            CombineIdentifier(object).description
                == "0x" + String(UInt(bitPattern: ObjectIdentifier(object)), radix: 16))
    }

    @Test func classesGetTheirIdentityAsIdentifier() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(sink.combineIdentifier == CombineIdentifier(sink))
    }

    @Test func emptySubscriptionIgnoresEverything() {
        let empty = Subscriptions.empty
        empty.request(.max(1))
        empty.cancel()
        #expect(String(describing: empty) == "Empty")
        #expect(empty.combineIdentifier == Subscriptions.empty.combineIdentifier)
    }
}
