import Cadence
import Testing

@Suite("Publishers.TryPrefixWhile")
struct TryPrefixWhileTests {
    @Test func republishesWhileThePredicateHoldsThenCancelsAndFinishes() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, any Error>()
        publisher.tryPrefix(while: { $0 < 3 }).subscribe(subscriber)

        publisher.send(1)
        publisher.send(2)
        #expect(!publisher.subscription.isCancelled)
        #expect(publisher.send(3) == .none)
        #expect(subscriber.slicingEventTexts == ["subscription", "value(1)", "value(2)", "finished"])
        #expect(publisher.subscription.cancelCount == 1)
    }

    @Test func aThrowingPredicateCancelsTheUpstreamAndFails() throws {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, any Error>()
        publisher.tryPrefix(while: { value in
            if value == 2 { throw TestError.other }
            return true
        }).subscribe(subscriber)

        publisher.send(1)
        #expect(publisher.send(2) == .none)
        #expect(subscriber.slicingEventTexts == ["subscription", "value(1)", "failure(other)"])
        #expect(publisher.subscription.cancelCount == 1)
        guard case .failure(let error) = try #require(subscriber.completions.first) else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? TestError == .other)

        let upstream = publisher.subscription
        #expect(upstream.downstream.receive(3) == .none)
        upstream.downstream.receive(completion: .finished)
        subscriber.request(.max(1))
        #expect(subscriber.slicingEventTexts == ["subscription", "value(1)", "failure(other)"])
        #expect(upstream.requests == [.unlimited])
        #expect(upstream.cancelCount == 1)
    }

    @Test func upstreamFinishing() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, any Error>()
        publisher.tryPrefix(while: { _ in true }).subscribe(subscriber)

        publisher.send(1)
        publisher.send(completion: .finished)
        #expect(subscriber.slicingEventTexts == ["subscription", "value(1)", "finished"])
    }

    @Test func passesTheUpstreamFailureOn() throws {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, any Error>()
        publisher.tryPrefix(while: { _ in true }).subscribe(subscriber)

        publisher.send(completion: .failure(.oops))
        guard case .failure(let error) = try #require(subscriber.completions.first) else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? TestError == .oops)
        #expect(subscriber.slicingEventTexts == ["subscription", "failure(oops)"])
    }

    @Test func demandPassesThroughBothWays() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(1), onValue: { _ in .max(2) })
        publisher.tryPrefix(while: { $0 < 10 }).subscribe(subscriber)

        #expect(publisher.subscription.requests == [.max(1)])
        #expect(publisher.send(1) == .max(2))
        subscriber.request(.max(3))
        #expect(publisher.subscription.requests == [.max(1), .max(3)])
        #expect(subscriber.values == [1])
    }

    @Test func cancelCancelsTheUpstreamOnceAndStopsDelivery() {
        SingleUpstreamOperatorChecks.cancelCancelsTheUpstreamOnceAndStopsDelivery(lateCompletion: .failure(.oops)) {
            $0.tryPrefix(while: { _ in true })
        }
    }

    /// As in Combine: the subscription keeps them until the upstream lets go of it.
    @Test func cancelKeepsTheSubscriberUntilTheUpstreamLetsGo() {
        expectCancelKeepsTheSubscriberUntilTheUpstreamLetsGo { upstream, capture in
            upstream.tryPrefix(while: { _ in withExtendedLifetime(capture) { true } })
        }
    }

    @Test func reflection() {
        let subscriber = TestSubscriber<Int, any Error>()
        DrivenPublisher<Int, TestError>().tryPrefix(while: { _ in true }).subscribe(subscriber)
        expectSlicingReflection(
            of: subscriber.subscription, description: "TryPrefixWhile", mirrorLabels: ["downstream"])
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
            Just(1).tryPrefix(while: { _ in true }).subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "TryPrefixWhile")
    }
    #endif
}
