import Cadence
import Testing

@Suite("Publishers.Catch")
struct CatchTests {
    typealias Source = DrivenPublisher<Int, TestError>

    struct Fixture {
        let upstream = Source()
        let replacement: Source
        let subscriber: TestSubscriber<Int, TestError>
        let caught = CatchTestsErrors()

        init(
            initialDemand: Subscribers.Demand = .unlimited, answer: Subscribers.Demand = .none,
            replacement: Source = Source()
        ) {
            self.replacement = replacement
            subscriber = TestSubscriber(initialDemand: initialDemand, onValue: { _ in answer })
            let caught = self.caught
            upstream.catch { error -> Source in
                caught.append(error)
                return replacement
            }.subscribe(subscriber)
        }
    }

    @Test func passesValuesAndFinishedThrough() {
        let fixture = Fixture()
        fixture.upstream.send(1)
        fixture.upstream.send(2)
        fixture.upstream.send(completion: .finished)
        #expect(fixture.subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(fixture.caught.errors == [])
        #expect(fixture.replacement.subscriptions.isEmpty)
    }

    @Test func replacesAFailedUpstream() {
        let fixture = Fixture()
        fixture.upstream.send(1)
        fixture.upstream.send(completion: .failure(.oops))
        #expect(fixture.caught.errors == [.oops])
        fixture.replacement.send(2)
        fixture.replacement.send(completion: .finished)
        #expect(fixture.subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(fixture.subscriber.subscriptions == 1)
    }

    @Test func theReplacementsFailureReachesTheDownstream() {
        let fixture = Fixture()
        fixture.upstream.send(completion: .failure(.oops))
        fixture.replacement.send(completion: .failure(.other))
        #expect(fixture.subscriber.events == [.subscription, .completion(.failure(.other))])
    }

    @Test func outstandingDemandIsCarriedOverToTheReplacement() {
        let fixture = Fixture(initialDemand: .max(2))
        #expect(fixture.upstream.subscription.requests == [.max(2)])
        fixture.subscriber.request(.max(1))
        #expect(fixture.upstream.subscription.requests == [.max(2), .max(1)])
        fixture.upstream.send(1)
        fixture.upstream.send(completion: .failure(.oops))
        #expect(fixture.replacement.subscription.requests == [.max(2)])
        fixture.subscriber.request(.max(4))
        #expect(fixture.replacement.subscription.requests == [.max(2), .max(4)])
        #expect(fixture.upstream.subscription.requests == [.max(2), .max(1)])
    }

    @Test func demandAskedWhileTheReplacementSubscribesIsKept() {
        let late = Source(sendsSubscriptionAtOnce: false)
        let fixture = Fixture(initialDemand: .max(1), replacement: late)
        fixture.upstream.send(completion: .failure(.oops))
        fixture.subscriber.request(.max(2))
        late.subscription.deliver()
        #expect(late.subscription.requests == [.max(3)])
    }

    @Test func noDemandIsAskedOfAReplacementWhenNoneIsOutstanding() {
        let fixture = Fixture(initialDemand: .max(1))
        fixture.upstream.send(1)
        fixture.upstream.send(completion: .failure(.oops))
        #expect(fixture.replacement.subscription.requests == [])
    }

    @Test func cancelCancelsTheUpstreamWhoseLateValuesStillGoThroughButNotItsFailure() {
        let fixture = Fixture(initialDemand: .max(1), answer: .max(3))
        let upstream = fixture.upstream.subscription
        fixture.subscriber.cancel()
        fixture.subscriber.cancel()
        fixture.subscriber.request(.max(5))
        #expect(upstream.cancelCount == 1)
        #expect(upstream.requests == [.max(1)]) // nothing asked after the cancel
        #expect(upstream.downstream.receive(1) == .max(3)) // the downstream's answer, as Combine returns it
        upstream.downstream.receive(completion: .failure(.oops))
        #expect(fixture.subscriber.events == [.subscription, .value(1)])
        #expect(fixture.caught.errors == []) // the handler is not called after a cancel
    }

    @Test func cancelCancelsTheReplacementWhoseLateValuesStillGoThroughButNotItsCompletion() {
        let fixture = Fixture()
        fixture.upstream.send(completion: .failure(.oops))
        fixture.subscriber.cancel()
        #expect(fixture.replacement.subscription.cancelCount == 1)
        _ = fixture.replacement.subscription.downstream.receive(1)
        fixture.replacement.subscription.downstream.receive(completion: .finished)
        #expect(fixture.subscriber.events == [.subscription, .value(1)])
        let extra = Source()
        extra.subscribe(fixture.replacement.subscription.downstream)
        #expect(extra.subscription.cancelCount == 1)
    }

    @Test func aReplacementSubscribingAfterCancelIsCancelled() {
        let late = Source(sendsSubscriptionAtOnce: false)
        let fixture = Fixture(replacement: late)
        fixture.upstream.send(completion: .failure(.oops))
        fixture.subscriber.cancel()
        late.subscription.deliver()
        #expect(late.subscription.cancelCount == 1)
        #expect(late.subscription.requests == [])
    }

    @Test func aSecondUpstreamSubscriptionIsCancelled() {
        let fixture = Fixture()
        let extra = Source()
        extra.subscribe(fixture.upstream.subscription.downstream)
        #expect(extra.subscription.isCancelled)
        #expect(fixture.subscriber.subscriptions == 1)
    }

    @Test func descriptionsNameCatch() throws {
        let fixture = Fixture()
        let subscription = try #require(fixture.subscriber.subscription)
        #expect((subscription as? any CustomStringConvertible)?.description == "Catch")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "Catch")
        let mirror = try #require((subscription as? any CustomReflectable)?.customMirror)
        #expect(mirror.children.map(\.label) == ["downstream", "demand"])
        #expect(fixture.upstream.subscription.downstream.description == "Catch")
        fixture.upstream.send(completion: .failure(.oops))
        #expect(fixture.replacement.subscription.downstream.description == "Catch")
    }

    #if !canImport(Combine) // Combine traps too; the messages are Cadence's
    @Test func anUnrequestedValueTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
            upstream.catch { _ in DrivenPublisher<Int, TestError>() }.subscribe(subscriber)
            upstream.send(1)
        }
        #expect(
            result?.standardErrorText.contains(
                "Catch: the upstream sent a value that was not requested; a publisher sends no more values than its "
                    + "subscriber requested") == true)
    }

    @Test func aSecondFailureOfTheUpstreamTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>()
            upstream.catch { _ in DrivenPublisher<Int, TestError>() }.subscribe(TestSubscriber<Int, TestError>())
            upstream.send(completion: .failure(.oops))
            upstream.send(completion: .failure(.oops))
        }
        #expect(
            result?.standardErrorText.contains(
                "Catch: the upstream failed before its subscription or after its first failure; a publisher completes "
                    + "once, after sending its subscription") == true)
    }
    #endif

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func zeroDemandTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
            DrivenPublisher<Int, TestError>().catch { _ in DrivenPublisher<Int, TestError>() }.subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "Catch")
    }
    #endif
}

/// The errors a `catch` handler saw.
final class CatchTestsErrors: @unchecked Sendable {
    // `lock` guards `recorded`.
    private let lock = TestLock()
    private var recorded: [TestError] = []

    func append(_ error: TestError) { lock.withLock { recorded.append(error) } }

    var errors: [TestError] { lock.withLock { recorded } }
}
