import Cadence
import Testing

@Suite("Publishers.PrefixWhile")
struct PrefixWhileTests {
    typealias Events = [Event<Int, TestError>]

    @Test func republishesWhileThePredicateHoldsThenCancelsAndFinishes() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        publisher.prefix(while: { $0 < 3 }).subscribe(subscriber)

        #expect(publisher.send(1) == .none)
        #expect(publisher.send(2) == .none)
        #expect(!publisher.subscription.isCancelled)
        #expect(publisher.send(3) == .none)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)] as Events)
        #expect(publisher.subscription.cancelCount == 1)
    }

    @Test func upstreamFinishing() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        publisher.prefix(while: { $0 < 3 }).subscribe(subscriber)

        publisher.send(1)
        publisher.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)] as Events)
        #expect(!publisher.subscription.isCancelled)
    }

    @Test func upstreamFailing() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        publisher.prefix(while: { $0 < 3 }).subscribe(subscriber)

        publisher.send(1)
        publisher.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(.oops))] as Events)
    }

    @Test func nothingIsDeliveredOrAskedAfterThePredicateFails() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        var asked: [Int] = []
        publisher.prefix(while: {
            asked.append($0)
            return $0 < 1
        }).subscribe(subscriber)

        let upstream = publisher.subscription
        #expect(upstream.downstream.receive(5) == .none)
        #expect(upstream.downstream.receive(0) == .none)
        upstream.downstream.receive(completion: .failure(.oops))
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .completion(.finished)] as Events)
        #expect(asked == [5])
        #expect(upstream.requests == [.unlimited])
        #expect(upstream.cancelCount == 1)
    }

    @Test func demandPassesThroughBothWays() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1), onValue: { $0 == 2 ? .max(4) : .none })
        publisher.prefix(while: { $0 < 10 }).subscribe(subscriber)

        #expect(publisher.subscription.requests == [.max(1)])
        #expect(publisher.send(1) == .none)
        subscriber.request(.max(2))
        #expect(publisher.subscription.requests == [.max(1), .max(2)])
        #expect(publisher.send(2) == .max(4))
        #expect(publisher.send(3) == .none)
        #expect(subscriber.values == [1, 2, 3])
        #expect(publisher.subscription.answered == [.none, .max(4), .none])
    }

    @Test func cancelCancelsTheUpstreamOnceAndStopsDelivery() {
        SingleUpstreamOperatorChecks.cancelCancelsTheUpstreamOnceAndStopsDelivery(lateCompletion: .finished) {
            $0.prefix(while: { _ in true })
        }
    }

    /// As in Combine: the subscription keeps them until the upstream lets go of it.
    @Test func cancelKeepsTheSubscriberAndThePredicateUntilTheUpstreamLetsGo() {
        expectCancelKeepsTheSubscriberUntilTheUpstreamLetsGo { upstream, capture in
            upstream.prefix(while: { _ in withExtendedLifetime(capture) { true } })
        }
    }

    @Test func aSecondSubscriptionIsCancelled() {
        SingleUpstreamOperatorChecks.aSecondSubscriptionIsCancelled { $0.prefix(while: { _ in true }) }
    }

    @Test func reflection() {
        let subscriber = TestSubscriber<Int, TestError>()
        DrivenPublisher<Int, TestError>().prefix(while: { _ in true }).subscribe(subscriber)
        expectSlicingReflection(of: subscriber.subscription, description: "PrefixWhile", mirrorLabels: ["downstream"])
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            Just(1).eraseToAnyPublisher().prefix(while: { _ in true }).subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "PrefixWhile")
    }
    #endif
}
