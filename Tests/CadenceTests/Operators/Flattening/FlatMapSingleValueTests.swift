import Cadence
import Testing

/// flatMap over inner publishers that hand over one value at once (`Just`, and `Just` given a failure type): each
/// scenario runs twice, once with `Just` itself and once with the same `Just` behind `eraseToAnyPublisher()`, which
/// flatMap can only subscribe to, and both runs must tell the subscriber and the upstream exactly the same things.
@Suite("Publishers.FlatMap over Just")
struct FlatMapSingleValueTests {
    /// What a run told the subscriber and the upstream.
    struct Trace: Equatable, CustomStringConvertible {
        var events: [Event<Int, TestError>]
        var requests: [Subscribers.Demand]
        var answered: [Subscribers.Demand]
        var upstreamCancels: Int

        var description: String {
            "events \(events), requests \(requests), answered \(answered), cancels \(upstreamCancels)"
        }
    }

    /// The upstream and the subscriber of one run, for the script and for the subscriber's reaction to a value.
    final class Run: @unchecked Sendable {
        // Touched only by the test's own thread.
        let upstream = DrivenPublisher<Int, TestError>()
        var subscriber: TestSubscriber<Int, TestError>!
    }

    /// Runs `script` on a flatMap of `inner` (as `Just` itself when `erased` is false, behind `AnyPublisher` when it
    /// is true) and returns what it told the subscriber and the upstream.
    static func trace(
        erased: Bool,
        maxPublishers: Subscribers.Demand = .unlimited,
        initialDemand: Subscribers.Demand = .unlimited,
        onValue: @escaping (Int, Run) -> Subscribers.Demand = { _, _ in .none },
        script: (Run) -> Void
    ) -> Trace {
        let run = Run()
        run.subscriber = TestSubscriber(initialDemand: initialDemand) { [unowned run] in onValue($0, run) }
        if erased {
            run.upstream
                .flatMap(maxPublishers: maxPublishers) {
                    Just($0 * 10).setFailureType(to: TestError.self).eraseToAnyPublisher()
                }
                .subscribe(run.subscriber)
        } else {
            run.upstream.flatMap(maxPublishers: maxPublishers) { Just($0 * 10) }.subscribe(run.subscriber)
        }
        script(run)
        let subscription = run.upstream.subscription
        return Trace(
            events: run.subscriber.events, requests: subscription.requests, answered: subscription.answered,
            upstreamCancels: subscription.cancelCount)
    }

    /// Runs the scenario both ways, expects the same trace, and returns it.
    @discardableResult
    static func expectSameTrace(
        maxPublishers: Subscribers.Demand = .unlimited,
        initialDemand: Subscribers.Demand = .unlimited,
        onValue: @escaping (Int, Run) -> Subscribers.Demand = { _, _ in .none },
        script: (Run) -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Trace {
        let direct = trace(
            erased: false, maxPublishers: maxPublishers, initialDemand: initialDemand, onValue: onValue, script: script)
        let subscribed = trace(
            erased: true, maxPublishers: maxPublishers, initialDemand: initialDemand, onValue: onValue, script: script)
        #expect(direct == subscribed, sourceLocation: sourceLocation)
        return direct
    }

    @Test func unlimitedDemandDeliversEachValueThenFinishesAfterTheUpstream() {
        let trace = Self.expectSameTrace { run in
            for value in 1...3 { _ = run.upstream.send(value) }
            run.upstream.send(completion: .finished)
        }
        #expect(trace.events == [.subscription, .value(10), .value(20), .value(30), .completion(.finished)])
        #expect(trace.answered == [.none, .none, .none])
    }

    @Test func valuesBeyondTheDemandWaitInOrderAndTheFinishWaitsForThem() {
        let trace = Self.expectSameTrace(initialDemand: .max(2)) { run in
            for value in 1...4 { _ = run.upstream.send(value) }
            run.upstream.send(completion: .finished)
            run.subscriber.request(.max(1))
            run.subscriber.request(.max(1))
        }
        #expect(
            trace.events == [.subscription, .value(10), .value(20), .value(30), .value(40), .completion(.finished)])
    }

    @Test func maxPublishersAsksTheUpstreamForOneMoreAfterEachJust() {
        let trace = Self.expectSameTrace(maxPublishers: .max(2), initialDemand: .max(1)) { run in
            for value in 1...3 { _ = run.upstream.send(value) }
            run.subscriber.request(.unlimited)
        }
        #expect(trace.requests == [.max(2), .max(1), .max(1), .max(1)])
        #expect(trace.events == [.subscription, .value(10), .value(20), .value(30)])
    }

    @Test func demandReturnedByTheDownstreamIsHonoured() {
        let trace = Self.expectSameTrace(initialDemand: .max(1), onValue: { value, _ in value == 10 ? .max(1) : .none })
        {
            run in
            for value in 1...3 { _ = run.upstream.send(value) }
            run.subscriber.request(.max(1))
        }
        #expect(trace.events == [.subscription, .value(10), .value(20), .value(30)])
    }

    @Test func cancellingFromInsideTheDownstreamStopsEverything() {
        let trace = Self.expectSameTrace(onValue: { value, run in
            if value == 20 { run.subscriber.cancel() }
            return .none
        }) { run in
            for value in 1...3 { _ = run.upstream.send(value) }
            run.upstream.send(completion: .finished)
        }
        #expect(trace.events == [.subscription, .value(10), .value(20)])
        #expect(trace.upstreamCancels == 1)
    }

    @Test func aValueSentUpstreamFromInsideTheDownstreamGoesOutAfterTheCurrentOne() {
        let trace = Self.expectSameTrace(onValue: { value, run in
            if value < 30 { _ = run.upstream.send(value / 10 + 1) }
            return .none
        }) { run in
            _ = run.upstream.send(1)
            run.upstream.send(completion: .finished)
        }
        #expect(trace.events == [.subscription, .value(10), .value(20), .value(30), .completion(.finished)])
    }

    @Test func theUpstreamFinishingFromInsideTheDownstreamFinishesOnceAfterTheValue() {
        let trace = Self.expectSameTrace(onValue: { _, run in
            run.upstream.send(completion: .finished)
            return .none
        }) { run in
            _ = run.upstream.send(1)
        }
        #expect(trace.events == [.subscription, .value(10), .completion(.finished)])
    }

    @Test func theUpstreamFailingFromInsideTheDownstreamFailsAfterTheValue() {
        let trace = Self.expectSameTrace(
            initialDemand: .max(1),
            onValue: { _, run in
                run.upstream.send(completion: .failure(.oops))
                return .none
            }
        ) { run in
            _ = run.upstream.send(1)
            _ = run.upstream.send(2)
            run.subscriber.request(.max(1))
        }
        #expect(trace.events == [.subscription, .value(10), .completion(.failure(.oops))])
    }

    @Test func anUpstreamFailureDropsTheValuesStillWaiting() {
        let trace = Self.expectSameTrace(initialDemand: .max(1)) { run in
            for value in 1...3 { _ = run.upstream.send(value) }
            run.upstream.send(completion: .failure(.other))
            run.subscriber.request(.max(5))
        }
        #expect(trace.events == [.subscription, .value(10), .completion(.failure(.other))])
    }

    @Test func nothingArrivesAfterACancel() {
        let trace = Self.expectSameTrace(initialDemand: .max(1)) { run in
            _ = run.upstream.send(1)
            _ = run.upstream.send(2)
            run.subscriber.cancel()
            _ = run.upstream.send(3)
            run.subscriber.request(.max(5))
        }
        #expect(trace.events == [.subscription, .value(10)])
    }

    @Test func aNeverFailingUpstreamFlattensJustItself() {
        let upstream = DrivenPublisher<Int, Never>()
        let direct = TestSubscriber<Int, Never>(initialDemand: .max(2))
        let subscribed = TestSubscriber<Int, Never>(initialDemand: .max(2))
        let flattened: Publishers.FlatMap<Just<Int>, DrivenPublisher<Int, Never>> = upstream.flatMap { Just($0) }
        flattened.subscribe(direct)
        upstream.flatMap { Just($0).eraseToAnyPublisher() }.subscribe(subscribed)
        for value in 1...3 { _ = upstream.send(value) }
        upstream.send(completion: .finished)
        direct.request(.max(1))
        subscribed.request(.max(1))
        #expect(direct.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
        #expect(direct.events == subscribed.events)
    }
}
