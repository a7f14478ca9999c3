import Cadence
import Testing

@Suite("Publishers.Drop")
struct DropTests {
    typealias Events = [Event<Int, TestError>]

    @Test func dropsTheFirstValuesThenRepublishes() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        publisher.dropFirst(2).subscribe(subscriber)

        #expect(publisher.send(1) == .none)
        #expect(publisher.send(2) == .none)
        #expect(publisher.send(3) == .none)
        #expect(publisher.send(4) == .none)
        #expect(subscriber.events == [.subscription, .value(3), .value(4)] as Events)
    }

    @Test func defaultCountIsOne() {
        let drop = DrivenPublisher<Int, TestError>().dropFirst()
        #expect(drop.count == 1)
    }

    @Test func finishes() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        publisher.dropFirst(1).subscribe(subscriber)

        publisher.send(1)
        publisher.send(2)
        publisher.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(2), .completion(.finished)] as Events)
    }

    @Test func failsWhileStillDropping() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        publisher.dropFirst(5).subscribe(subscriber)

        publisher.send(1)
        publisher.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))] as Events)
    }

    /// After a completion values and requests go nowhere; as in Combine, a second completion goes on.
    @Test func onlyCompletionsAreDeliveredAfterCompletion() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        publisher.dropFirst(0).subscribe(subscriber)

        publisher.send(completion: .finished)
        #expect(publisher.send(1) == .none)
        publisher.send(completion: .failure(.oops))
        subscriber.request(.max(3))
        #expect(subscriber.events == [.subscription, .completion(.finished), .completion(.failure(.oops))] as Events)
        #expect(publisher.subscription.requests == [.unlimited])
    }

    @Test func requestsTheSubscribersDemandPlusTheCountUpFront() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        publisher.dropFirst(2).subscribe(subscriber)

        // The subscriber asked for one value before the upstream was subscribed to: Drop adds the two it drops.
        #expect(publisher.subscription.requests == [.max(3)])
        #expect(publisher.send(1) == .none)
        #expect(publisher.send(2) == .none)
        #expect(publisher.send(3) == .none)
        #expect(subscriber.values == [3])

        subscriber.request(.max(2))
        #expect(publisher.subscription.requests == [.max(3), .max(2)])
        publisher.send(4)
        publisher.send(5)
        #expect(subscriber.values == [3, 4, 5])
        #expect(publisher.subscription.answered == [.none, .none, .none, .none, .none])
    }

    @Test func requestsTheCountEvenWithoutDemand() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        publisher.dropFirst(3).subscribe(subscriber)

        #expect(publisher.subscription.requests == [.max(3)])
    }

    @Test func requestsNothingWhenThereIsNothingToDropOrDeliver() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        publisher.dropFirst(0).subscribe(subscriber)

        #expect(publisher.subscription.requests == [])
        subscriber.request(.max(4))
        #expect(publisher.subscription.requests == [.max(4)])
    }

    @Test func passesTheSubscribersAnswerThroughAfterDropping() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1), onValue: { _ in .max(2) })
        publisher.dropFirst(1).subscribe(subscriber)

        #expect(publisher.send(1) == .none)
        #expect(publisher.send(2) == .max(2))
    }

    @Test func collectsDemandUntilTheUpstreamSubscriptionArrives() {
        let publisher = DrivenPublisher<Int, TestError>(sendsSubscriptionAtOnce: false)
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(2))
        publisher.dropFirst(4).subscribe(subscriber)

        // The subscriber already has its subscription, before the upstream has sent one.
        #expect(subscriber.events == [.subscription] as Events)
        subscriber.request(.max(3))
        publisher.subscription.deliver()
        #expect(publisher.subscription.requests == [.max(9)])
    }

    @Test func aValueBeforeTheUpstreamSubscriptionIsCountedAndPassedOn() {
        let publisher = DrivenPublisher<Int, TestError>(sendsSubscriptionAtOnce: false)
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(2)) { _ in .max(42) }
        publisher.dropFirst(1).subscribe(subscriber)

        #expect(publisher.send(1) == .none)
        #expect(publisher.send(2) == .max(42))
        #expect(subscriber.events == [.subscription, .value(2)] as Events)
    }

    @Test func cancelCancelsTheUpstreamOnceAndStopsDelivery() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        publisher.dropFirst(1).subscribe(subscriber)

        publisher.send(1)
        publisher.send(2)
        subscriber.cancel()
        subscriber.cancel()
        #expect(publisher.subscription.cancelCount == 1)

        // A misbehaving upstream keeps sending: no value reaches the subscriber and nothing is requested, but, as in
        // Combine, its completion goes on.
        let upstream = publisher.subscription
        #expect(upstream.downstream.receive(3) == .none)
        upstream.downstream.receive(completion: .finished)
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(2), .completion(.finished)] as Events)
        #expect(upstream.requests == [.unlimited])
    }

    @Test func cancelBeforeTheUpstreamSubscriptionArrivesCancelsIt() {
        let publisher = DrivenPublisher<Int, TestError>(sendsSubscriptionAtOnce: false)
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(2))
        publisher.dropFirst(1).subscribe(subscriber)

        subscriber.cancel()
        publisher.subscription.deliver()
        #expect(publisher.subscription.cancelCount == 1)
        #expect(publisher.subscription.requests == [])
    }

    /// As in Combine: the subscription keeps its subscriber until the upstream lets go of it.
    @Test func cancelKeepsTheSubscriberUntilTheUpstreamLetsGo() {
        SingleUpstreamOperatorChecks.cancelKeepsTheSubscriberUntilTheUpstreamLetsGo { $0.dropFirst(1) }
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        publisher.dropFirst(1).subscribe(subscriber)

        let first = publisher.subscription
        first.deliver()
        #expect(first.cancelCount == 1)
        #expect(first.requests == [.unlimited])
        #expect(subscriber.subscriptions == 1)
    }

    @Test func concurrentValuesRequestsAndCancelDoNotRace() {
        SingleUpstreamOperatorChecks.concurrentValuesRequestsAndCancelDoNotRace(firstValue: 3) {
            ($0.dropFirst(3), { #expect($0.completions.isEmpty) })
        }
    }

    @Test func reflection() {
        let subscriber = TestSubscriber<Int, TestError>()
        DrivenPublisher<Int, TestError>().dropFirst(1).subscribe(subscriber)
        expectSlicingReflection(of: subscriber.subscription, description: "Drop")
    }

    @Test func equatableWhenTheUpstreamIs() {
        let upstream = TaggedPublisher(1)
        #expect(upstream.dropFirst(2) == upstream.dropFirst(2))
        #expect(upstream.dropFirst(2) != upstream.dropFirst(3))
        #expect(upstream.dropFirst(2).upstream == upstream)
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func negativeCountTrapsOnSubscription() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Just(1).eraseToAnyPublisher().dropFirst(-1).subscribe(TestSubscriber<Int, Never>())
        }
        #expect(result?.standardErrorText.contains("Drop: dropFirst(_:) needs a count of zero or more, got -1") == true)
    }
    #endif

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            Just(1).eraseToAnyPublisher().dropFirst(1).subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "Drop")
    }
    #endif
}
