import Cadence
import Testing

@Suite("Optional.Publisher")
struct OptionalPublisherTests {
    typealias Sut = Optional<Int>.Publisher

    @Test func valueWaitsForDemandThenFinishes() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Sut(42).subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(42), .completion(.finished)])
    }

    @Test func nilFinishesAtOnce() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Sut(nil).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(subscriber.subscription.map { String(describing: $0) } == "Empty")
    }

    @Test func publisherPropertyAndEquality() {
        let subscriber = TestSubscriber<String, Never>()
        Optional("a").publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value("a"), .completion(.finished)])
        #expect(Optional(3).publisher == Sut(3))
        #expect(Sut(3) != Sut(nil))
        #expect(Sut(3).output == 3)
    }

    @Test func cancelBeforeTheRequestDeliversNothing() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Sut(1).subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription])
    }

    @Test func descriptionIsOptional() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Sut(42).subscribe(subscriber)
        let subscription = subscriber.subscription
        #expect(subscription.map { String(describing: $0) } == "Optional")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Optional")
        let mirror = subscription.map { Mirror(reflecting: $0) }
        #expect(mirror?.children.map { $0.value as? Int } == [42])
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            Optional(1).publisher.subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "Optional")
    }
    #endif
}
