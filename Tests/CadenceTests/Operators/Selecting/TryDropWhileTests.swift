import Cadence
import Testing

@Suite("Publishers.TryDropWhile")
struct TryDropWhileTests {
    @Test func dropsWhileThePredicateHoldsThenRepublishesEverything() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, any Error>()
        publisher.tryDrop(while: { $0 < 3 }).subscribe(subscriber)

        for value in [1, 2, 3, 1, 4] {
            publisher.send(value)
        }
        #expect(subscriber.slicingEventTexts == ["subscription", "value(3)", "value(1)", "value(4)"])
    }

    @Test func thePredicateIsNotAskedOnceItReturnedFalse() throws {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, any Error>()
        publisher.tryDrop(while: { value in
            if value == 0 { throw TestError.other }
            return value < 2
        }).subscribe(subscriber)

        publisher.send(1)
        publisher.send(2)
        publisher.send(0)
        #expect(subscriber.slicingEventTexts == ["subscription", "value(2)", "value(0)"])
    }

    @Test func finishes() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, any Error>()
        publisher.tryDrop(while: { $0 < 2 }).subscribe(subscriber)

        publisher.send(2)
        publisher.send(completion: .finished)
        #expect(subscriber.slicingEventTexts == ["subscription", "value(2)", "finished"])
    }

    @Test func passesTheUpstreamFailureOn() throws {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, any Error>()
        publisher.tryDrop(while: { $0 < 2 }).subscribe(subscriber)

        publisher.send(completion: .failure(.oops))
        #expect(subscriber.slicingEventTexts == ["subscription", "failure(oops)"])
        guard case .failure(let error) = try #require(subscriber.completions.first) else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? TestError == .oops)
    }

    @Test func aThrowingPredicateCancelsTheUpstreamAndFails() throws {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, any Error>()
        publisher.tryDrop(while: { value in
            if value == 2 { throw TestError.other }
            return true
        }).subscribe(subscriber)

        #expect(publisher.send(1) == .max(1))
        #expect(publisher.send(2) == .none)
        #expect(subscriber.slicingEventTexts == ["subscription", "failure(other)"])
        #expect(publisher.subscription.cancelCount == 1)
        guard case .failure(let error) = try #require(subscriber.completions.first) else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? TestError == .other)

        // The upstream did not see the cancel yet: what it sends now is dropped.
        let upstream = publisher.subscription
        #expect(upstream.downstream.receive(3) == .none)
        upstream.downstream.receive(completion: .finished)
        subscriber.request(.max(1))
        #expect(subscriber.slicingEventTexts == ["subscription", "failure(other)"])
        #expect(upstream.requests == [.unlimited])
        #expect(upstream.cancelCount == 1)
    }

    @Test func demandPassesThroughAndDroppedValuesAreAnsweredWithOne() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(1))
        publisher.tryDrop(while: { $0 < 10 }).subscribe(subscriber)

        #expect(publisher.subscription.requests == [.max(1)])
        #expect(publisher.send(1) == .max(1))
        #expect(publisher.send(10) == .none)
        subscriber.request(.max(2))
        #expect(publisher.subscription.requests == [.max(1), .max(2)])
        #expect(publisher.send(3) == .none)
        #expect(subscriber.values == [10, 3])
        #expect(publisher.subscription.answered == [.max(1), .none, .none])
    }

    @Test func cancelCancelsTheUpstreamOnceAndStopsDelivery() {
        SingleUpstreamOperatorChecks.cancelCancelsTheUpstreamOnceAndStopsDelivery(lateCompletion: .failure(.oops)) {
            $0.tryDrop(while: { $0 < 1 })
        }
    }

    /// As in Combine: the subscription keeps them until the upstream lets go of it.
    @Test func cancelKeepsTheSubscriberUntilTheUpstreamLetsGo() {
        expectCancelKeepsTheSubscriberUntilTheUpstreamLetsGo { upstream, capture in
            upstream.tryDrop(while: { _ in withExtendedLifetime(capture) { true } })
        }
    }

    @Test func aSecondSubscriptionIsCancelled() {
        SingleUpstreamOperatorChecks.aSecondSubscriptionIsCancelled { $0.tryDrop(while: { _ in true }) }
    }

    @Test func reflection() {
        let subscriber = TestSubscriber<Int, any Error>()
        DrivenPublisher<Int, TestError>().tryDrop(while: { _ in true }).subscribe(subscriber)
        expectSlicingReflection(of: subscriber.subscription, description: "TryDropWhile", mirrorLabels: [])
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
            Just(1).tryDrop(while: { _ in true }).subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "TryDropWhile")
    }
    #endif
}
