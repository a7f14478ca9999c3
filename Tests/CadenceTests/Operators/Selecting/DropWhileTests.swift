import Cadence
import Testing

@Suite("Publishers.DropWhile")
struct DropWhileTests {
    typealias Events = [Event<Int, TestError>]

    @Test func dropsWhileThePredicateHoldsThenRepublishesEverything() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        var predicateInputs: [Int] = []
        publisher.drop(while: { value in
            predicateInputs.append(value)
            return value < 3
        }).subscribe(subscriber)

        for value in [1, 2, 3, 1, 4] {
            publisher.send(value)
        }
        #expect(subscriber.events == [.subscription, .value(3), .value(1), .value(4)] as Events)
        // Once the predicate returned false, it is not asked again.
        #expect(predicateInputs == [1, 2, 3])
    }

    @Test func finishes() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        publisher.drop(while: { $0 < 2 }).subscribe(subscriber)

        publisher.send(1)
        publisher.send(2)
        publisher.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(2), .completion(.finished)] as Events)
    }

    @Test func fails() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        publisher.drop(while: { $0 < 2 }).subscribe(subscriber)

        publisher.send(1)
        publisher.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))] as Events)
    }

    @Test func nothingIsDeliveredAfterCompletion() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        publisher.drop(while: { _ in false }).subscribe(subscriber)

        let upstream = publisher.subscription
        upstream.downstream.receive(completion: .finished)
        #expect(upstream.downstream.receive(1) == .none)
        upstream.downstream.receive(completion: .failure(.oops))
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .completion(.finished)] as Events)
        #expect(upstream.requests == [.unlimited])
    }

    @Test func demandPassesThroughAndDroppedValuesAreAnsweredWithOne() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        publisher.drop(while: { $0 < 10 }).subscribe(subscriber)

        #expect(publisher.subscription.requests == [.max(1)])
        #expect(publisher.send(1) == .max(1))
        #expect(publisher.send(2) == .max(1))
        #expect(publisher.send(10) == .none)
        subscriber.request(.max(2))
        #expect(publisher.subscription.requests == [.max(1), .max(2)])
        #expect(publisher.send(3) == .none)
        #expect(publisher.send(4) == .none)
        #expect(subscriber.values == [10, 3, 4])
        #expect(publisher.subscription.answered == [.max(1), .max(1), .none, .none, .none])
    }

    @Test func passesTheSubscribersAnswerThrough() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1), onValue: { _ in .max(5) })
        publisher.drop(while: { $0 < 1 }).subscribe(subscriber)

        #expect(publisher.send(0) == .max(1))
        #expect(publisher.send(1) == .max(5))
        #expect(publisher.send(0) == .max(5))
    }

    @Test func cancelCancelsTheUpstreamOnceAndStopsDelivery() {
        SingleUpstreamOperatorChecks.cancelCancelsTheUpstreamOnceAndStopsDelivery(lateCompletion: .finished) {
            $0.drop(while: { $0 < 1 })
        }
    }

    /// As in Combine: the subscription keeps them until the upstream lets go of it.
    @Test func cancelKeepsTheSubscriberAndThePredicateUntilTheUpstreamLetsGo() {
        expectCancelKeepsTheSubscriberUntilTheUpstreamLetsGo { upstream, capture in
            upstream.drop(while: { _ in withExtendedLifetime(capture) { true } })
        }
    }

    @Test func aSecondSubscriptionIsCancelled() {
        SingleUpstreamOperatorChecks.aSecondSubscriptionIsCancelled { $0.drop(while: { _ in true }) }
    }

    @Test func reflection() {
        let subscriber = TestSubscriber<Int, TestError>()
        DrivenPublisher<Int, TestError>().drop(while: { _ in true }).subscribe(subscriber)
        expectSlicingReflection(of: subscriber.subscription, description: "DropWhile", mirrorLabels: [])
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            Just(1).eraseToAnyPublisher().drop(while: { _ in true }).subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "DropWhile")
    }
    #endif
}
