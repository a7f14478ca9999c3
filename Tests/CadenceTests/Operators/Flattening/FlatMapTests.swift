import Cadence
import Dispatch
import Testing

@Suite("Publishers.FlatMap")
struct FlatMapTests {
    typealias Inner = DrivenPublisher<Int, TestError>

    /// An upstream of indices, each mapped to the inner publisher at that index.
    struct Fixture {
        let upstream = DrivenPublisher<Int, TestError>()
        let inners: [Inner]
        let subscriber: TestSubscriber<Int, TestError>

        init(
            inners count: Int = 3, maxPublishers: Subscribers.Demand = .unlimited,
            initialDemand: Subscribers.Demand = .unlimited,
            onValue: @escaping (Int) -> Subscribers.Demand = { _ in .none }
        ) {
            let inners = (0..<count).map { _ in Inner() }
            self.inners = inners
            subscriber = TestSubscriber(initialDemand: initialDemand, onValue: onValue)
            upstream.flatMap(maxPublishers: maxPublishers) { inners[$0] }.subscribe(subscriber)
        }
    }

    @Test func flattensTheValuesOfEveryInnerPublisher() {
        let fixture = Fixture()
        fixture.upstream.send(0)
        fixture.upstream.send(1)
        fixture.inners[0].send(1)
        fixture.inners[1].send(10)
        fixture.inners[0].send(2)
        #expect(fixture.subscriber.events == [.subscription, .value(1), .value(10), .value(2)])
        #expect(fixture.upstream.subscription.requests == [.unlimited])
        #expect(fixture.inners[0].subscription.requests == [.unlimited])
        #expect(fixture.inners[1].subscription.requests == [.unlimited])
    }

    @Test func sendsTheSubscriptionDownstreamBeforeSubscribingUpstream() {
        let upstream = DrivenPublisher<Int, TestError>(sendsSubscriptionAtOnce: false)
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.flatMap { _ in Inner() }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        #expect(upstream.subscription.requests == [])
        upstream.subscription.deliver()
        #expect(upstream.subscription.requests == [.unlimited])
    }

    @Test func finishesWhenTheUpstreamAndEveryInnerFinished() {
        let fixture = Fixture()
        fixture.upstream.send(0)
        fixture.upstream.send(1)
        fixture.inners[0].send(1)
        fixture.inners[0].send(completion: .finished)
        fixture.upstream.send(completion: .finished)
        #expect(fixture.subscriber.events == [.subscription, .value(1)])
        fixture.inners[1].send(2)
        fixture.inners[1].send(completion: .finished)
        #expect(fixture.subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func finishesAtOnceWhenTheUpstreamFinishesWithNoInnerPublisher() {
        let fixture = Fixture()
        fixture.upstream.send(completion: .finished)
        #expect(fixture.subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func upstreamFailureCancelsTheInnersAndDropsBufferedValues() {
        let fixture = Fixture(initialDemand: .max(1))
        fixture.upstream.send(0)
        fixture.inners[0].send(1)
        fixture.inners[0].send(2) // buffered: no demand left
        fixture.upstream.send(completion: .failure(.oops))
        #expect(fixture.subscriber.events == [.subscription, .value(1), .completion(.failure(.oops))])
        #expect(fixture.inners[0].subscription.isCancelled)
        #expect(!fixture.upstream.subscription.isCancelled)
        fixture.subscriber.request(.max(5))
        #expect(fixture.subscriber.values == [1])
    }

    @Test func innerFailureCancelsEverythingElse() {
        let fixture = Fixture()
        fixture.upstream.send(0)
        fixture.upstream.send(1)
        fixture.upstream.send(2)
        fixture.inners[1].send(completion: .failure(.other))
        #expect(fixture.subscriber.events == [.subscription, .completion(.failure(.other))])
        #expect(fixture.inners[0].subscription.cancelCount == 1)
        #expect(fixture.inners[1].subscription.cancelCount == 0)
        #expect(fixture.inners[2].subscription.cancelCount == 1)
        #expect(fixture.upstream.subscription.cancelCount == 1)
        fixture.inners[2].send(completion: .failure(.oops))
        fixture.inners[0].send(3)
        #expect(fixture.subscriber.events == [.subscription, .completion(.failure(.other))])
    }

    @Test func asksEachInnerForOneValueAtATimeAndBuffersBeyondDemand() {
        let fixture = Fixture(initialDemand: .max(2))
        fixture.upstream.send(0)
        fixture.upstream.send(1)
        #expect(fixture.inners[0].subscription.requests == [.max(1)])
        #expect(fixture.inners[1].subscription.requests == [.max(1)])

        #expect(fixture.inners[0].send(1) == .max(1))
        #expect(fixture.inners[0].send(2) == .max(1))
        #expect(fixture.inners[0].send(3) == .none) // no demand: buffered
        #expect(fixture.inners[1].send(10) == .none)
        #expect(fixture.subscriber.values == [1, 2])

        fixture.subscriber.request(.max(1))
        #expect(fixture.subscriber.values == [1, 2, 3])
        #expect(fixture.inners[0].subscription.requests == [.max(1), .max(1)])
        #expect(fixture.inners[1].subscription.requests == [.max(1)])

        fixture.subscriber.request(.max(5))
        #expect(fixture.subscriber.values == [1, 2, 3, 10])
        #expect(fixture.inners[1].subscription.requests == [.max(1), .max(1)])
        #expect(fixture.upstream.subscription.requests == [.unlimited])
    }

    @Test func unlimitedDemandIsPassedToEveryInner() {
        let fixture = Fixture(initialDemand: .max(1))
        fixture.upstream.send(0)
        fixture.inners[0].send(1)
        fixture.inners[0].send(2)
        fixture.subscriber.request(.unlimited)
        #expect(fixture.subscriber.values == [1, 2])
        #expect(fixture.inners[0].subscription.requests == [.max(1), .unlimited])
        fixture.upstream.send(1)
        #expect(fixture.inners[1].subscription.requests == [.unlimited])
        #expect(fixture.inners[1].send(3) == .none)
        #expect(fixture.subscriber.values == [1, 2, 3])
    }

    @Test func demandReturnedByTheDownstreamIsHonoured() {
        let fixture = Fixture(initialDemand: .max(1), onValue: { $0 < 3 ? .max(1) : .none })
        fixture.upstream.send(0)
        for value in 1...5 {
            fixture.inners[0].send(value)
        }
        #expect(fixture.subscriber.values == [1, 2, 3])
        fixture.subscriber.request(.max(1))
        #expect(fixture.subscriber.values == [1, 2, 3, 4])
    }

    @Test func doesNotFinishBeforeBufferedValuesWentOut() {
        let fixture = Fixture(initialDemand: .max(1))
        fixture.upstream.send(0)
        fixture.inners[0].send(1)
        fixture.inners[0].send(2)
        fixture.inners[0].send(completion: .finished)
        fixture.upstream.send(completion: .finished)
        #expect(fixture.subscriber.events == [.subscription, .value(1)])
        fixture.subscriber.request(.max(1))
        #expect(fixture.subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func maxPublishersLimitsTheUpstreamDemand() {
        let fixture = Fixture(maxPublishers: .max(2))
        #expect(fixture.upstream.subscription.requests == [.max(2)])
        fixture.upstream.send(0)
        fixture.upstream.send(1)
        fixture.inners[0].send(completion: .finished)
        #expect(fixture.upstream.subscription.requests == [.max(2), .max(1)])
        fixture.upstream.send(2)
        fixture.inners[2].send(7)
        #expect(fixture.subscriber.values == [7])
    }

    @Test func cancelCancelsTheUpstreamAndEveryInnerOnce() {
        let fixture = Fixture()
        fixture.upstream.send(0)
        fixture.upstream.send(1)
        fixture.subscriber.cancel()
        fixture.subscriber.cancel()
        #expect(fixture.upstream.subscription.cancelCount == 1)
        #expect(fixture.inners[0].subscription.cancelCount == 1)
        #expect(fixture.inners[1].subscription.cancelCount == 1)
        fixture.inners[0].send(1)
        fixture.inners[1].send(completion: .finished)
        fixture.upstream.send(2)
        fixture.upstream.send(completion: .finished)
        #expect(fixture.subscriber.events == [.subscription])
        #expect(fixture.inners[2].subscriptions.isEmpty)
    }

    @Test func aSecondUpstreamSubscriptionIsCancelled() throws {
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.flatMap { _ in Inner() }.subscribe(subscriber)
        let outer = try #require(upstream.subscription.downstream as AnySubscriber?)
        let extra = DrivenPublisher<Int, TestError>()
        extra.subscribe(outer)
        #expect(extra.subscription.isCancelled)
        #expect(extra.subscription.requests == [])
    }

    /// Combine's flatMap delivers a value that an inner publisher sends from inside the downstream's `receive(_:)`
    /// at once, nested in that call, and answers that publisher `.max(1)` for it: nothing is left to ask later.
    @Test func aValueSentFromInsideTheDownstreamGoesOutNestedInTheCurrentOne() {
        let upstream = DrivenPublisher<Int, TestError>()
        let inners = [Inner(), Inner()]
        let trace = LockedBox<[String]>([])
        let subscriber = TestSubscriber<Int, TestError>(
            initialDemand: .max(3),
            onValue: { value in
                trace.append("in \(value)")
                if value == 1 { inners[1].send(10) }
                trace.append("out \(value)")
                return .none
            })
        upstream.flatMap { inners[$0] }.subscribe(subscriber)
        upstream.send(0)
        upstream.send(1)
        #expect(inners[0].send(1) == .max(1))
        #expect(trace.value == ["in 1", "in 10", "out 10", "out 1"])
        #expect(subscriber.values == [1, 10])
        #expect(inners[1].subscription.answered == [.max(1)])
        #expect(inners[1].subscription.requests == [.max(1)])
    }

    /// Without demand left for it, the value sent from inside the downstream waits for a request instead.
    @Test func aValueSentFromInsideTheDownstreamWithoutDemandWaits() {
        let upstream = DrivenPublisher<Int, TestError>()
        let inners = [Inner(), Inner()]
        let subscriber = TestSubscriber<Int, TestError>(
            initialDemand: .max(1),
            onValue: { value in
                if value == 1 { inners[1].send(10) }
                return .none
            })
        upstream.flatMap { inners[$0] }.subscribe(subscriber)
        upstream.send(0)
        upstream.send(1)
        #expect(inners[0].send(1) == .max(1))
        #expect(subscriber.values == [1])
        #expect(inners[1].subscription.answered == [.none])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 10])
        #expect(inners[1].subscription.requests == [.max(1), .max(1)])
    }

    /// Combine counts every `.finished` an inner publisher sends: a second one from an inner that has finished
    /// already asks the upstream for one more publisher, as the first did. Nothing reaches the downstream.
    @Test func aSecondFinishFromTheSameInnerAsksTheUpstreamForOneMore() {
        let fixture = Fixture(inners: 1, maxPublishers: .max(1))
        fixture.upstream.send(0)
        fixture.inners[0].send(completion: .finished)
        #expect(fixture.upstream.subscription.requests == [.max(1), .max(1)])
        fixture.inners[0].send(completion: .finished)
        #expect(fixture.upstream.subscription.requests == [.max(1), .max(1), .max(1)])
        #expect(fixture.subscriber.events == [.subscription])
    }

    /// The same when the inner finishes again from inside the request its first finish made of the upstream: each
    /// nested finish asks once more.
    @Test func aFinishSentAgainFromInsideTheUpstreamsRequestCountsAgain() {
        let upstream = CallingBackPublisher()
        let inner = Inner()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        upstream.flatMap(maxPublishers: .max(1)) { _ in inner }.subscribe(subscriber)
        var finishesLeft = 3
        upstream.onRequest = {
            guard finishesLeft > 0 else { return }
            finishesLeft -= 1
            inner.send(completion: .finished)
        }
        upstream.send(0)
        inner.send(completion: .finished)
        #expect(upstream.requests.value == Array(repeating: .max(1), count: 5))
        #expect(inner.subscription.requests == [.max(1)])
        #expect(subscriber.events == [.subscription])
    }

    @Test func neverFailingOverloadFlattensJust() {
        let subscriber = TestSubscriber<Int, Never>()
        Just(3).flatMap { Just($0 * 2) }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(6), .completion(.finished)])
    }

    @Test func aNeverFailingUpstreamTakesOnTheInnersFailureType() {
        let upstream = DrivenPublisher<Int, Never>()
        let inner = Inner()
        let subscriber = TestSubscriber<Int, TestError>()
        let flattened: Publishers.FlatMap<Inner, Publishers.SetFailureType<DrivenPublisher<Int, Never>, TestError>> =
            upstream.flatMap { _ in inner }
        flattened.subscribe(subscriber)
        upstream.send(0)
        inner.send(1)
        inner.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(.oops))])
    }

    @Test func neverFailingInnersTakeOnTheUpstreamsFailureType() {
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        let flattened:
            Publishers.FlatMap<
                Publishers.SetFailureType<Just<Int>, TestError>, DrivenPublisher<Int, TestError>
            > = upstream.flatMap { Just($0 * 10) }
        flattened.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(.other))
        #expect(subscriber.events == [.subscription, .value(10), .value(20), .completion(.failure(.other))])
    }

    @Test func descriptionsNameFlatMap() throws {
        let fixture = Fixture()
        let subscription = try #require(fixture.subscriber.subscription)
        #expect((subscription as? any CustomStringConvertible)?.description == "FlatMap")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "FlatMap")
        let mirror = try #require((subscription as? any CustomReflectable)?.customMirror)
        #expect(mirror.children.isEmpty)
        fixture.upstream.send(0)
        #expect(fixture.inners[0].subscription.downstream.description == "FlatMap")
        #expect(fixture.upstream.subscription.downstream.description == "FlatMap")
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func zeroDemandTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
            DrivenPublisher<Int, TestError>().flatMap { _ in DrivenPublisher<Int, TestError>() }.subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "FlatMap")
    }
    #endif

    #if !canImport(Combine) // Combine traps here too, with a message of its own
    /// Combine cancels the inner publishers under its lock on the upstream's failure: an inner whose `cancel()`
    /// makes the upstream fail again, on the same thread, traps there. Cadence stops too, and says why.
    @Test func anInnerCancelThatCallsBackOnTheUpstreamsFailureTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>()
            let inner = CallingBackPublisher()
            upstream.flatMap { _ in inner }.subscribe(TestSubscriber<Int, TestError>())
            inner.onCancel = { upstream.send(completion: .failure(.other)) }
            upstream.send(0)
            upstream.send(completion: .failure(.oops))
        }
        #expect(
            result?.standardErrorText.contains(
                """
                FlatMap: receive(completion:) was called from inside an inner publisher's cancel(), which flatMap made \
                on its upstream's failure, on the same thread
                """) == true)
    }
    #endif

    /// The downstream's cancel cancels the inner publishers with no lock held, in Combine too: an inner whose
    /// `cancel()` calls back into flatMap then is no misuse, and what it sends is dropped.
    @Test func anInnerCancelThatCallsBackOnTheDownstreamsCancelIsIgnored() {
        let upstream = DrivenPublisher<Int, TestError>()
        let inner = CallingBackPublisher()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.flatMap { _ in inner }.subscribe(subscriber)
        inner.onCancel = { inner.send(7) }
        upstream.send(0)
        subscriber.cancel()
        #expect(inner.cancels.value == 1)
        #expect(subscriber.events == [.subscription])
    }

    @Test func innersSendingFromManyThreadsNeverOverlapOrLoseValues() {
        let innerCount = 8
        let valuesPerInner = 500
        for demand in [Subscribers.Demand.unlimited, .max(1)] {
            let upstream = DrivenPublisher<Int, TestError>()
            let inners = (0..<innerCount).map { _ in Inner() }
            let subscriber = FlatteningCheckingSubscriber<Int>(initialDemand: demand)
            upstream.flatMap { inners[$0] }.subscribe(subscriber)
            for index in 0..<innerCount {
                upstream.send(index)
            }
            DispatchQueue.concurrentPerform(iterations: innerCount) { index in
                for value in 0..<valuesPerInner {
                    inners[index].send(index * valuesPerInner + value)
                }
                inners[index].send(completion: .finished)
            }
            upstream.send(completion: .finished)
            #expect(subscriber.overlaps == 0)
            let values = subscriber.values
            #expect(values.count == innerCount * valuesPerInner)
            for index in 0..<innerCount {
                let fromInner = values.filter { $0 / valuesPerInner == index }
                #expect(fromInner == Array(index * valuesPerInner..<(index + 1) * valuesPerInner))
            }
            #expect(subscriber.completions == [.finished])
        }
    }

    @Test func cancellingWhileInnersSendStopsDelivery() {
        let upstream = DrivenPublisher<Int, TestError>()
        let inners = (0..<4).map { _ in Inner() }
        let subscriber = FlatteningCheckingSubscriber<Int>(initialDemand: .unlimited)
        upstream.flatMap { inners[$0] }.subscribe(subscriber)
        for index in 0..<4 {
            upstream.send(index)
        }
        DispatchQueue.concurrentPerform(iterations: 5) { index in
            if index == 4 {
                subscriber.cancel()
                return
            }
            for value in 0..<300 {
                inners[index].send(value)
            }
        }
        let countAfterCancel = subscriber.values.count
        for inner in inners {
            inner.send(1)
        }
        #expect(subscriber.values.count == countAfterCancel)
        #expect(subscriber.overlaps == 0)
        #expect(inners.allSatisfy { $0.subscription.cancelCount == 1 })
        #expect(upstream.subscription.cancelCount == 1)
    }
}
