import Cadence
import Dispatch
import Testing

@Suite("Publishers.SwitchToLatest")
struct SwitchToLatestTests {
    typealias Inner = DrivenPublisher<Int, TestError>

    struct Fixture {
        let upstream = DrivenPublisher<Inner, TestError>()
        let subscriber: TestSubscriber<Int, TestError>

        init(
            initialDemand: Subscribers.Demand = .unlimited,
            onValue: @escaping (Int) -> Subscribers.Demand = { _ in .none }
        ) {
            subscriber = TestSubscriber(initialDemand: initialDemand, onValue: onValue)
            upstream.switchToLatest().subscribe(subscriber)
        }
    }

    @Test func republishesTheLatestInnerOnly() {
        let fixture = Fixture()
        let first = Inner()
        let second = Inner()
        fixture.upstream.send(first)
        first.send(1)
        fixture.upstream.send(second)
        #expect(first.subscription.cancelCount == 1)
        // Even a publisher that ignores the cancellation no longer gets through.
        _ = first.subscription.downstream.receive(2)
        second.send(3)
        #expect(fixture.subscriber.events == [.subscription, .value(1), .value(3)])
        #expect(fixture.upstream.subscription.requests == [.unlimited])
        #expect(second.subscription.requests == [.unlimited])
    }

    @Test func finishesWhenTheUpstreamAndTheCurrentInnerFinished() {
        let fixture = Fixture()
        let first = Inner()
        let second = Inner()
        fixture.upstream.send(first)
        fixture.upstream.send(second)
        fixture.upstream.send(completion: .finished)
        first.subscription.downstream.receive(completion: .finished) // switched away from: ignored
        #expect(fixture.subscriber.events == [.subscription])
        second.send(5)
        second.send(completion: .finished)
        #expect(fixture.subscriber.events == [.subscription, .value(5), .completion(.finished)])
    }

    @Test func keepsGoingWhenAnInnerFinishesBeforeTheUpstream() {
        let fixture = Fixture()
        let first = Inner()
        let second = Inner()
        fixture.upstream.send(first)
        first.send(1)
        first.send(completion: .finished)
        fixture.upstream.send(second)
        second.send(2)
        #expect(fixture.subscriber.events == [.subscription, .value(1), .value(2)])
        second.send(completion: .finished)
        fixture.upstream.send(completion: .finished)
        #expect(fixture.subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func finishesAtOnceWithoutAnyInner() {
        let fixture = Fixture()
        fixture.upstream.send(completion: .finished)
        #expect(fixture.subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func waitsForAnInnerWhoseSubscriptionIsLate() {
        let fixture = Fixture()
        let late = Inner(sendsSubscriptionAtOnce: false)
        fixture.upstream.send(late)
        fixture.upstream.send(completion: .finished)
        #expect(fixture.subscriber.events == [.subscription])
        late.subscription.deliver()
        #expect(late.subscription.requests == [.unlimited])
        late.send(4)
        late.send(completion: .finished)
        #expect(fixture.subscriber.events == [.subscription, .value(4), .completion(.finished)])
    }

    @Test func innerFailureFailsAndCancelsTheUpstream() {
        let fixture = Fixture()
        let inner = Inner()
        fixture.upstream.send(inner)
        inner.send(completion: .failure(.oops))
        #expect(fixture.subscriber.events == [.subscription, .completion(.failure(.oops))])
        #expect(fixture.upstream.subscription.cancelCount == 1)
        fixture.upstream.send(Inner())
        #expect(fixture.subscriber.events == [.subscription, .completion(.failure(.oops))])
    }

    @Test func upstreamFailureFailsAndCancelsTheCurrentInner() {
        let fixture = Fixture()
        let inner = Inner()
        fixture.upstream.send(inner)
        inner.send(1)
        fixture.upstream.send(completion: .failure(.other))
        #expect(fixture.subscriber.events == [.subscription, .value(1), .completion(.failure(.other))])
        #expect(inner.subscription.cancelCount == 1)
        #expect(fixture.upstream.subscription.cancelCount == 0)
    }

    @Test func aFinishedInnersLateValueGoesThroughWhileTheUpstreamRunsButNothingFollowsTheCompletion() {
        let fixture = Fixture(onValue: { _ in .max(100) })
        let inner = Inner()
        fixture.upstream.send(inner)
        inner.send(completion: .finished)
        #expect(inner.subscription.downstream.receive(1) == .max(100)) // the downstream's answer, as in Combine
        inner.subscription.downstream.receive(completion: .failure(.other))
        #expect(fixture.subscriber.events == [.subscription, .value(1)])

        // Combine passes on a value the upstream's failure did not stop in time; Cadence keeps rule 1.7.
        let failing = Fixture()
        let cancelled = Inner()
        failing.upstream.send(cancelled)
        failing.upstream.send(completion: .failure(.oops))
        #expect(cancelled.subscription.downstream.receive(1) == .none)
        #expect(failing.subscriber.events == [.subscription, .completion(.failure(.oops))])
    }

    @Test func aCompletionTheUpstreamSendsAgainGoesOutAgainUntilACancel() {
        let fixture = Fixture()
        let upstream = fixture.upstream.subscription.downstream
        upstream.receive(completion: .finished)
        upstream.receive(completion: .failure(.oops))
        upstream.receive(completion: .finished)
        #expect(
            fixture.subscriber.events == [
                .subscription, .completion(.finished), .completion(.failure(.oops)), .completion(.finished),
            ])
        fixture.subscriber.cancel()
        upstream.receive(completion: .failure(.oops))
        #expect(fixture.subscriber.events.count == 4)
    }

    @Test func theLatestInnersLateSubscriptionIsTakenAfterItFinished() {
        let fixture = Fixture(initialDemand: .max(2))
        let inner = Inner()
        fixture.upstream.send(inner)
        inner.send(completion: .finished)
        let late = Inner()
        late.subscribe(inner.subscription.downstream)
        #expect(late.subscription.cancelCount == 0)
        #expect(late.subscription.requests == [.max(2)])
        fixture.upstream.send(Inner()) // a newer inner replaces it
        #expect(late.subscription.cancelCount == 1)
    }

    @Test func aLateInnerSubscriptionIsTakenAfterAnUpstreamFailureAndCancelledWithTheDownstream() {
        let fixture = Fixture()
        let pending = Inner(sendsSubscriptionAtOnce: false)
        fixture.upstream.send(pending)
        fixture.upstream.send(completion: .failure(.oops))
        #expect(fixture.subscriber.events == [.subscription, .completion(.failure(.oops))])
        pending.subscription.deliver()
        #expect(pending.subscription.requests == [.unlimited])
        #expect(pending.subscription.cancelCount == 0)
        fixture.subscriber.cancel()
        #expect(pending.subscription.cancelCount == 1)
    }

    @Test func demandIsCarriedOverToTheNextInner() {
        let fixture = Fixture(initialDemand: .max(2))
        let first = Inner()
        let second = Inner()
        fixture.upstream.send(first)
        #expect(first.subscription.requests == [.max(2)])
        #expect(first.send(1) == .none)
        fixture.upstream.send(second)
        #expect(second.subscription.requests == [.max(1)])
        fixture.subscriber.request(.max(3))
        #expect(second.subscription.requests == [.max(1), .max(3)])
        #expect(first.subscription.requests == [.max(2)])
        for value in 2...5 {
            second.send(value)
        }
        #expect(fixture.subscriber.values == [1, 2, 3, 4, 5])
        #expect(fixture.upstream.subscription.requests == [.unlimited])
    }

    @Test func demandReturnedByTheDownstreamGoesToTheInner() {
        let fixture = Fixture(initialDemand: .max(1), onValue: { _ in .max(1) })
        let inner = Inner()
        fixture.upstream.send(inner)
        #expect(inner.send(1) == .max(1))
        #expect(inner.send(2) == .max(1))
        #expect(fixture.subscriber.values == [1, 2])
    }

    @Test func noInnerIsAskedBeforeTheDownstreamAsks() {
        let fixture = Fixture(initialDemand: .none)
        let inner = Inner()
        fixture.upstream.send(inner)
        #expect(inner.subscription.requests == [])
        fixture.subscriber.request(.max(1))
        #expect(inner.subscription.requests == [.max(1)])
    }

    @Test func cancelCancelsTheUpstreamAndTheCurrentInnerOnce() {
        let fixture = Fixture()
        let inner = Inner()
        fixture.upstream.send(inner)
        fixture.subscriber.cancel()
        fixture.subscriber.cancel()
        #expect(inner.subscription.cancelCount == 1)
        #expect(fixture.upstream.subscription.cancelCount == 1)
        _ = inner.subscription.downstream.receive(1)
        inner.subscription.downstream.receive(completion: .finished)
        fixture.upstream.subscription.downstream.receive(completion: .finished)
        #expect(fixture.subscriber.events == [.subscription])
    }

    @Test func aValueSentFromInsideTheDownstreamIsDeliveredAfterTheCurrentOne() {
        let inner = Inner()
        let subscriber = TestSubscriber<Int, TestError>(
            initialDemand: .max(2),
            onValue: { value in
                if value == 1 { inner.send(2) }
                return .none
            })
        let upstream = DrivenPublisher<Inner, TestError>()
        upstream.switchToLatest().subscribe(subscriber)
        upstream.send(inner)
        inner.send(1)
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
    }

    @Test func neverFailingOverloadSwitchesJust() {
        let subscriber = TestSubscriber<Int, Never>()
        Just(Just(7)).switchToLatest().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(7), .completion(.finished)])
    }

    @Test func aNeverFailingUpstreamTakesOnTheInnersFailureType() {
        let upstream = DrivenPublisher<Inner, Never>()
        let inner = Inner()
        let subscriber = TestSubscriber<Int, TestError>()
        let switched:
            Publishers.SwitchToLatest<
                Inner, Publishers.SetFailureType<DrivenPublisher<Inner, Never>, TestError>
            > = upstream.switchToLatest()
        switched.subscribe(subscriber)
        upstream.send(inner)
        inner.send(1)
        inner.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(.oops))])
    }

    @Test func neverFailingInnersTakeOnTheUpstreamsFailureType() {
        let upstream = DrivenPublisher<Just<Int>, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        let switched:
            Publishers.SwitchToLatest<
                Publishers.SetFailureType<Just<Int>, TestError>,
                Publishers.Map<DrivenPublisher<Just<Int>, TestError>, Publishers.SetFailureType<Just<Int>, TestError>>
            > = upstream.switchToLatest()
        switched.subscribe(subscriber)
        upstream.send(Just(1))
        upstream.send(Just(2))
        upstream.send(completion: .failure(.other))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.failure(.other))])
    }

    @Test(arguments: [SubscriptionEnding.cancel, .finish, .fail])
    func theDownstreamStaysAfterTheEndUntilTheSubscriptionGoes(ending: SubscriptionEnding) {
        expectTheSubscriberStaysUntilTheSubscriptionGoes(ending: ending) {
            $0.map { Just($0).setFailureType(to: TestError.self) }.switchToLatest()
        }
    }

    @Test func aSecondUpstreamSubscriptionIsCancelled() {
        let fixture = Fixture()
        let extra = DrivenPublisher<Inner, TestError>()
        extra.subscribe(fixture.upstream.subscription.downstream)
        #expect(extra.subscription.isCancelled)
        #expect(extra.subscription.requests == [])
        #expect(!fixture.upstream.subscription.isCancelled)
    }

    @Test func descriptionsNameSwitchToLatest() throws {
        let fixture = Fixture()
        let subscription = try #require(fixture.subscriber.subscription)
        #expect((subscription as? any CustomStringConvertible)?.description == "SwitchToLatest")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "SwitchToLatest")
        let mirror = try #require((subscription as? any CustomReflectable)?.customMirror)
        #expect(mirror.children.map(\.label) == ["downstream", "demand"])
        let inner = Inner()
        fixture.upstream.send(inner)
        #expect(inner.subscription.downstream.description == "SwitchToLatest")
        #expect(fixture.upstream.subscription.downstream.description == "SwitchToLatest")
    }

    @Test func switchingWhileInnersSendFromOtherThreadsNeverOverlaps() {
        let inners = (0..<40).map { _ in Inner() }
        let upstream = DrivenPublisher<Inner, TestError>()
        // Unlimited: the inners send without regard to demand, which a limited demand would turn into a broken rule.
        let subscriber = FlatteningCheckingSubscriber<Int>(initialDemand: .unlimited)
        upstream.switchToLatest().subscribe(subscriber)
        upstream.send(inners[0])
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            if thread == 0 {
                for inner in inners.dropFirst() {
                    upstream.send(inner)
                }
                return
            }
            for round in 0..<200 {
                inners[(round * thread) % inners.count].send(round)
            }
        }
        let delivered = subscriber.values.count
        inners.last?.send(1)
        inners.last?.send(completion: .finished)
        upstream.send(completion: .finished)
        #expect(subscriber.overlaps == 0)
        #expect(subscriber.values.count == delivered + 1)
        #expect(subscriber.completions == [.finished])
        #expect(inners.dropLast().allSatisfy { $0.subscription.cancelCount == 1 })
    }

    #if !canImport(Combine) // Combine traps too; the messages are Cadence's
    @Test func aValueSentBeyondTheDemandTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<DrivenPublisher<Int, TestError>, TestError>()
            let inner = DrivenPublisher<Int, TestError>()
            upstream.switchToLatest().subscribe(TestSubscriber<Int, TestError>(initialDemand: .max(1)))
            upstream.send(inner)
            inner.send(1)
            inner.send(2)
        }
        #expect(
            result?.standardErrorText.contains(
                "SwitchToLatest: an inner publisher sent a value that was not requested; a publisher sends no more "
                    + "values than its subscriber requested") == true)
    }

    @Test func anInnerCompletingBeforeItsSubscriptionTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<DrivenPublisher<Int, TestError>, TestError>()
            let inner = DrivenPublisher<Int, TestError>(sendsSubscriptionAtOnce: false)
            upstream.switchToLatest().subscribe(TestSubscriber<Int, TestError>())
            upstream.send(inner)
            inner.send(completion: .finished)
        }
        #expect(
            result?.standardErrorText.contains(
                "SwitchToLatest: an inner publisher completed before sending its subscription; a publisher sends its "
                    + "subscription first") == true)
    }
    #endif

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func zeroDemandTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
            DrivenPublisher<DrivenPublisher<Int, TestError>, TestError>().switchToLatest().subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "SwitchToLatest")
    }
    #endif
}
