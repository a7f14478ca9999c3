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
        _ publisher: DrivenPublisher<Int, TestError>,
        into journal: Journal
    ) -> Publishers.HandleEvents<DrivenPublisher<Int, TestError>> {
        publisher.handleEvents(
            receiveSubscription: { journal.append("subscription(\($0))") },
            receiveOutput: { journal.append("output(\($0))") },
            receiveCompletion: { journal.append("completion(\($0))") },
            receiveCancel: { journal.append("cancel") },
            receiveRequest: { journal.append("request(\($0))") })
    }

    @Test func runsEachClosureAndPassesEverythingOn() {
        let publisher = DrivenPublisher<Int, TestError>()
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
        let publisher = DrivenPublisher<Int, TestError>()
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
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        let journal = Journal()
        Self.recorded(publisher, into: journal).subscribe(subscriber)

        publisher.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))] as Events)
        #expect(journal.all.last == "completion(failure(oops))")
    }

    /// As in Combine, the operator checks nothing: what a misbehaving upstream sends after its completion still goes
    /// on, but no closure runs for it, and the subscriber's later request and cancel no longer reach the upstream.
    @Test func closuresDoNotRunAfterCompletionButLateEventsGoOn() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        let journal = Journal()
        Self.recorded(publisher, into: journal).subscribe(subscriber)

        let upstream = publisher.subscription
        upstream.downstream.receive(completion: .finished)
        #expect(upstream.downstream.receive(1) == .none)
        upstream.downstream.receive(completion: .failure(.oops))
        subscriber.request(.max(1))
        subscriber.cancel()
        #expect(
            subscriber.events == [.subscription, .completion(.finished), .value(1), .completion(.failure(.oops))]
                as Events)
        #expect(journal.all == ["subscription(TestSubscription)", "request(unlimited)", "completion(finished)"])
        #expect(upstream.requests == [.unlimited])
        #expect(!upstream.isCancelled)
    }

    /// As in Combine, a value before the subscription goes on too, its closure run, and the subscription that
    /// arrives afterwards is taken as usual.
    @Test func aValueBeforeTheSubscriptionGoesOn() {
        let publisher = DrivenPublisher<Int, TestError>(sendsSubscriptionAtOnce: false)
        let subscriber = TestSubscriber<Int, TestError>(onValue: { _ in .max(3) })
        let journal = Journal()
        Self.recorded(publisher, into: journal).subscribe(subscriber)

        #expect(publisher.subscription.downstream.receive(7) == .max(3))
        publisher.subscription.deliver()
        #expect(subscriber.events == [.value(7), .subscription] as Events)
        #expect(
            journal.all == ["output(7)", "request(max(3))", "subscription(TestSubscription)", "request(unlimited)"])
        #expect(publisher.subscription.requests == [.unlimited])
    }

    @Test func demandPassesThroughAndReceiveRequestSeesIt() {
        let publisher = DrivenPublisher<Int, TestError>()
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

    /// Cancelling runs `receiveCancel` once and cancels the upstream once; as in Combine, what a misbehaving upstream
    /// sends afterwards still goes on, with no closure run for it.
    @Test func cancelRunsReceiveCancelOnceAndCancelsTheUpstreamOnce() {
        let publisher = DrivenPublisher<Int, TestError>()
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
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)] as Events)
        #expect(journal.all == ["subscription(TestSubscription)", "request(unlimited)", "output(1)", "cancel"])
        #expect(upstream.requests == [.unlimited])
    }

    /// Cancelling releases the closures, with all they captured (as in Combine, the subscriber stays with the
    /// subscription, which the upstream lets go of).
    @Test func cancelReleasesTheClosures() {
        let publisher = DrivenPublisher<Int, TestError>()
        final class Captured {}
        weak var released: Captured?
        do {
            let captured = Captured()
            released = captured
            let subscriber = TestSubscriber<Int, TestError>()
            publisher.handleEvents(receiveOutput: { _ in withExtendedLifetime(captured) {} }).subscribe(subscriber)
            subscriber.cancel()
        }
        #expect(released == nil)
    }

    @Test func aSecondSubscriptionIsShownToTheClosureThenCancelled() {
        let publisher = DrivenPublisher<Int, TestError>()
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
            return (
                Self.recorded(publisher, into: journal),
                { _ in
                    #expect(journal.all.filter { $0 == "cancel" }.count == 1)
                }
            )
        }
    }

    @Test func reflection() {
        let subscriber = TestSubscriber<Int, TestError>()
        DrivenPublisher<Int, TestError>().handleEvents().subscribe(subscriber)
        expectSlicingReflection(of: subscriber.subscription, description: "HandleEvents")
    }

    /// As in Combine, a request for nothing is shown to `receiveRequest` and passed on to the upstream rather than
    /// trapped.
    @Test func aRequestForNothingIsPassedOn() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        let journal = Journal()
        Self.recorded(publisher, into: journal).subscribe(subscriber)
        subscriber.request(.none)
        #expect(publisher.subscription.requests == [.none])
        #expect(journal.all == ["subscription(TestSubscription)", "request(max(0))"])
    }
}
