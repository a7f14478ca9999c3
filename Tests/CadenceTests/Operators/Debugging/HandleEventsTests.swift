import Cadence
import Testing

@Suite("Publishers.HandleEvents")
struct HandleEventsTests {
    typealias Events = [Event<Int, TestError>]

    /// Records, in order, each closure call of a `handleEvents` operator.
    final class Journal: @unchecked Sendable { // `lock` guards `entries`
        private let lock = TestLock()
        private var entries: [String] = []

        func append(_ entry: String) {
            lock.withLock { entries.append(entry) }
        }

        var all: [String] { lock.withLock { entries } }
    }

    static func recorded(
        _ publisher: TestPublisher<Int, TestError>,
        into journal: Journal
    ) -> Publishers.HandleEvents<TestPublisher<Int, TestError>> {
        publisher.handleEvents(
            receiveSubscription: { journal.append("subscription(\($0))") },
            receiveOutput: { journal.append("output(\($0))") },
            receiveCompletion: { journal.append("completion(\($0))") },
            receiveCancel: { journal.append("cancel") },
            receiveRequest: { journal.append("request(\($0))") })
    }

    @Test func runsEachClosureAndPassesEverythingOn() {
        let publisher = TestPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        let journal = Journal()
        Self.recorded(publisher, into: journal).subscribe(subscriber)

        publisher.send(1)
        publisher.send(2)
        publisher.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)] as Events)
        #expect(
            journal.all == [
                "subscription(TestSubscription)", "request(unlimited)", "output(1)", "output(2)",
                "completion(finished)",
            ])
    }

    @Test func closuresRunBeforeTheEventGoesOn() {
        let publisher = TestPublisher<Int, TestError>()
        let journal = Journal()
        let subscriber = TestSubscriber<Int, TestError>(onValue: { value in
            journal.append("subscriber got \(value)")
            return .none
        })
        Self.recorded(publisher, into: journal).subscribe(subscriber)

        publisher.send(7)
        #expect(journal.all.suffix(2) == ["output(7)", "subscriber got 7"])
    }

    @Test func failure() {
        let publisher = TestPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        let journal = Journal()
        Self.recorded(publisher, into: journal).subscribe(subscriber)

        publisher.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))] as Events)
        #expect(journal.all.last == "completion(failure(oops))")
    }

    @Test func nothingRunsOrIsDeliveredAfterCompletion() {
        let publisher = TestPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        let journal = Journal()
        Self.recorded(publisher, into: journal).subscribe(subscriber)

        let upstream = publisher.subscription
        upstream.downstream.receive(completion: .finished)
        #expect(upstream.downstream.receive(1) == .none)
        upstream.downstream.receive(completion: .failure(.oops))
        subscriber.request(.max(1))
        subscriber.cancel()
        #expect(subscriber.events == [.subscription, .completion(.finished)] as Events)
        #expect(journal.all == ["subscription(TestSubscription)", "request(unlimited)", "completion(finished)"])
        #expect(upstream.requests == [.unlimited])
        #expect(!upstream.isCancelled)
    }

    @Test func demandPassesThroughAndReceiveRequestSeesIt() {
        let publisher = TestPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1), onValue: { $0 == 1 ? .max(2) : .none })
        let journal = Journal()
        Self.recorded(publisher, into: journal).subscribe(subscriber)

        #expect(publisher.subscription.requests == [.max(1)])
        #expect(publisher.send(1) == .max(2))
        #expect(publisher.send(2) == .none)
        subscriber.request(.max(3))
        #expect(publisher.subscription.requests == [.max(1), .max(3)])
        #expect(subscriber.values == [1, 2])
        // A demand of zero returned for a value is not a request.
        #expect(
            journal.all == [
                "subscription(TestSubscription)", "request(max(1))", "output(1)", "request(max(2))", "output(2)",
                "request(max(3))",
            ])
    }

    @Test func cancelRunsReceiveCancelOnceCancelsTheUpstreamOnceAndStopsDelivery() {
        let publisher = TestPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        let journal = Journal()
        Self.recorded(publisher, into: journal).subscribe(subscriber)

        publisher.send(1)
        subscriber.cancel()
        subscriber.cancel()
        let upstream = publisher.subscription
        #expect(upstream.cancelCount == 1)

        #expect(upstream.downstream.receive(2) == .none)
        upstream.downstream.receive(completion: .finished)
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1)] as Events)
        #expect(journal.all == ["subscription(TestSubscription)", "request(unlimited)", "output(1)", "cancel"])
        #expect(upstream.requests == [.unlimited])
    }

    @Test func cancelReleasesTheSubscriberAndTheClosures() {
        SingleUpstreamOperatorChecks.cancelReleasesTheSubscriberAndTheClosure { upstream, capture in
            upstream.handleEvents(receiveOutput: { _ in withExtendedLifetime(capture) {} })
        }
    }

    @Test func aSecondSubscriptionIsShownToTheClosureThenCancelled() {
        let publisher = TestPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        let journal = Journal()
        Self.recorded(publisher, into: journal).subscribe(subscriber)

        publisher.subscription.deliver()
        #expect(publisher.subscription.cancelCount == 1)
        #expect(subscriber.subscriptions == 1)
        #expect(
            journal.all == [
                "subscription(TestSubscription)", "request(unlimited)", "subscription(TestSubscription)",
            ])
    }

    @Test func storesItsClosures() {
        var handled = Just(1).handleEvents(receiveOutput: { _ in })
        #expect(handled.receiveOutput != nil)
        #expect(handled.receiveSubscription == nil)
        #expect(handled.receiveCompletion == nil)
        #expect(handled.receiveCancel == nil)
        #expect(handled.receiveRequest == nil)
        handled.receiveCancel = {}
        #expect(handled.receiveCancel != nil)
        #expect(handled.upstream == Just(1))
    }

    @Test func concurrentValuesRequestsAndCancelDoNotRace() {
        SingleUpstreamOperatorChecks.concurrentValuesRequestsAndCancelDoNotRace { publisher in
            let journal = Journal()
            return (Self.recorded(publisher, into: journal), { _ in
                #expect(journal.all.filter { $0 == "cancel" }.count == 1)
            })
        }
    }

    @Test func reflection() {
        let subscriber = TestSubscriber<Int, TestError>()
        TestPublisher<Int, TestError>().handleEvents().subscribe(subscriber)
        expectSlicingReflection(of: subscriber.subscription, description: "HandleEvents")
    }

    #if !canImport(Combine)  // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            Just(1).handleEvents().subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "HandleEvents")
    }
    #endif
}
