import Cadence
import Testing

@Suite("Publishers.Output")
struct OutputTests {
    typealias Events = [Event<Int, TestError>]

    @Test func operatorsMakeTheRange() {
        let upstream = Just(0)
        #expect(upstream.prefix(3).range == 0..<3)
        #expect(upstream.prefix(0).range == 0..<0)
        #expect(upstream.output(at: 4).range == 4..<5)
        #expect(upstream.output(in: 2...4).range == 2..<5)
        #expect(upstream.output(in: 2..<4).range == 2..<4)
        #expect(upstream.output(in: ..<4).range == 0..<4)
        #expect(upstream.output(in: 6...).range == 6..<Int.max)
    }

    @Test func prefixRepublishesTheFirstValuesThenFinishesOnTheNext() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        publisher.prefix(2).subscribe(subscriber)

        publisher.send(1)
        publisher.send(2)
        // As in Combine, the end of the range is noticed when the next value arrives.
        #expect(subscriber.events == [.subscription, .value(1), .value(2)] as Events)
        #expect(!publisher.subscription.isCancelled)

        #expect(publisher.send(3) == .none)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)] as Events)
        #expect(publisher.subscription.cancelCount == 1)
    }

    @Test func outputInRepublishesTheRange() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        publisher.output(in: 1...2).subscribe(subscriber)

        for value in 10...14 {
            publisher.send(value)
        }
        #expect(subscriber.events == [.subscription, .value(11), .value(12), .completion(.finished)] as Events)
        #expect(publisher.subscription.cancelCount == 1)
    }

    @Test func outputAtRepublishesOneValue() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        publisher.output(at: 2).subscribe(subscriber)

        for value in 10...13 {
            publisher.send(value)
        }
        #expect(subscriber.events == [.subscription, .value(12), .completion(.finished)] as Events)
    }

    @Test func prefixZeroFinishesOnTheFirstValue() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        publisher.prefix(0).subscribe(subscriber)

        publisher.send(1)
        #expect(subscriber.events == [.subscription, .completion(.finished)] as Events)
        #expect(publisher.subscription.cancelCount == 1)
    }

    @Test func upstreamFinishingBeforeTheRangeEnds() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        publisher.prefix(5).subscribe(subscriber)

        publisher.send(1)
        publisher.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)] as Events)
        #expect(!publisher.subscription.isCancelled)
    }

    @Test func upstreamFailing() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        publisher.output(in: 1..<3).subscribe(subscriber)

        publisher.send(1)
        publisher.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))] as Events)
    }

    @Test func nothingIsDeliveredAfterFinishing() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        publisher.prefix(1).subscribe(subscriber)

        let upstream = publisher.subscription
        #expect(upstream.downstream.receive(1) == .none)
        #expect(upstream.downstream.receive(2) == .none)
        #expect(upstream.downstream.receive(3) == .none)
        upstream.downstream.receive(completion: .failure(.oops))
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)] as Events)
        #expect(upstream.requests == [.unlimited])
        #expect(upstream.cancelCount == 1)
    }

    @Test func demandPassesThroughAndSkippedValuesAreAnsweredWithOne() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        publisher.output(in: 2..<5).subscribe(subscriber)

        #expect(publisher.subscription.requests == [.max(1)])
        #expect(publisher.send(0) == .max(1))
        #expect(publisher.send(1) == .max(1))
        #expect(publisher.send(2) == .none)
        #expect(subscriber.values == [2])

        subscriber.request(.max(2))
        #expect(publisher.subscription.requests == [.max(1), .max(2)])
        #expect(publisher.send(3) == .none)
        #expect(publisher.send(4) == .none)
        #expect(subscriber.values == [2, 3, 4])
        #expect(publisher.subscription.answered == [.max(1), .max(1), .none, .none, .none])
    }

    @Test func passesTheSubscribersAnswerThrough() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1), onValue: { _ in .max(3) })
        publisher.prefix(2).subscribe(subscriber)

        #expect(publisher.send(1) == .max(3))
    }

    /// As Combine's `output(in:)` does, the subscription keeps no guard on values: what a misbehaving upstream still
    /// sends after a cancel is counted and delivered while the range lasts; a completion after the cancel is dropped.
    @Test func cancelCancelsTheUpstreamOnceAndLaterValuesStillGoThroughAsInCombine() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(onValue: { _ in .max(2) })
        publisher.output(in: 1..<3).subscribe(subscriber)
        publisher.send(0)
        subscriber.cancel()
        subscriber.cancel()
        let upstream = publisher.subscription
        #expect(upstream.cancelCount == 1)

        #expect(upstream.downstream.receive(1) == .max(2))
        #expect(upstream.downstream.receive(2) == .max(2))
        #expect(upstream.downstream.receive(3) == .none)
        upstream.downstream.receive(completion: .finished)
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2)] as Events)
        #expect(upstream.requests == [.unlimited])
        #expect(upstream.cancelCount == 1)
    }

    /// As in Combine: the subscription keeps its subscriber until the upstream lets go of it.
    @Test func cancelKeepsTheSubscriberUntilTheUpstreamLetsGo() {
        expectCancelKeepsTheSubscriberUntilTheUpstreamLetsGo { upstream, capture in
            // `map` hands the subscription straight through: its subscriber, holding the closure, is the downstream.
            upstream.prefix(1).map { value in withExtendedLifetime(capture) { value } }
        }
    }

    @Test func aSecondSubscriptionIsCancelled() {
        SingleUpstreamOperatorChecks.aSecondSubscriptionIsCancelled { $0.prefix(1) }
    }

    @Test func concurrentValuesRequestsAndCancelDoNotRace() {
        SingleUpstreamOperatorChecks.concurrentValuesRequestsAndCancelDoNotRace(firstValue: 2) {
            ($0.output(in: 2..<90), { #expect($0.completions.count <= 1) })
        }
    }

    @Test func reflection() {
        let subscriber = TestSubscriber<Int, TestError>()
        DrivenPublisher<Int, TestError>().prefix(1).subscribe(subscriber)
        expectSlicingReflection(of: subscriber.subscription, description: "Output", mirrorLabels: [])
    }

    @Test func equatableWhenTheUpstreamIs() {
        let upstream = TaggedPublisher(1)
        #expect(upstream.prefix(2) == upstream.output(in: 0..<2))
        #expect(upstream.prefix(2) != upstream.prefix(3))
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func negativePrefixTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Just(1).eraseToAnyPublisher().prefix(-1)
        }
        #expect(
            result?.standardErrorText.contains("Output: prefix(_:) needs a maxLength of zero or more, got -1") == true)
    }
    #endif

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func outputAtIntMaxTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Just(1).eraseToAnyPublisher().output(at: .max)
        }
        #expect(
            result?.standardErrorText.contains(
                "Output: output(at:) needs an index from 0 to Int.max - 1, got \(Int.max)") == true)
    }
    #endif

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func negativeLowerBoundTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Just(1).eraseToAnyPublisher().output(in: (-1)...)
        }
        #expect(
            result?.standardErrorText.contains(
                "Output: the range of indices must not have a negative bound, got -1..<\(Int.max)") == true)
    }
    #endif

    /// As Combine's `output(in:)` does, a zero demand goes to the upstream as it is.
    @Test func aZeroDemandIsPassedOn() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        publisher.prefix(1).subscribe(subscriber)
        subscriber.request(.none)
        #expect(publisher.subscription.requests == [.none])
    }
}
