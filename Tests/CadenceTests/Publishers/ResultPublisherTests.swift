import Cadence
import Testing

@Suite("Result.Publisher")
struct ResultPublisherTests {
    typealias Sut = Result<Int, TestError>.Publisher

    @Test func successWaitsForDemandThenFinishes() {
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        Sut(42).subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(42), .completion(.finished)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(42), .completion(.finished)])
    }

    @Test func failureGoesOutAtOnce() {
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        Sut(.oops).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
        #expect(subscriber.subscription.map { String(describing: $0) } == "Empty")
    }

    @Test func publisherPropertyAndInitializers() {
        let subscriber = TestSubscriber<Int, TestError>()
        Result<Int, TestError>.success(7).publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(7), .completion(.finished)])
        #expect(Sut(.success(1)) == Sut(1))
        #expect(Sut(.failure(.oops)) == Sut(.oops))
        #expect(Sut(1) != Sut(2))
        #expect(Result<Int, TestError>.failure(.other).publisher.result == .failure(.other))
    }

    @Test func cancelBeforeTheRequestDeliversNothing() {
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        Sut(1).subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription])
    }

    @Test func descriptionIsOnce() {
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        Sut(42).subscribe(subscriber)
        let subscription = subscriber.subscription
        #expect(subscription.map { String(describing: $0) } == "Once")
        #expect((subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Once")
        let mirror = subscription.map { Mirror(reflecting: $0) }
        #expect(mirror?.children.map { $0.value as? Int } == [42])
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            Result<Int, Never>.success(1).publisher.subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "Once")
    }
    #endif
}
