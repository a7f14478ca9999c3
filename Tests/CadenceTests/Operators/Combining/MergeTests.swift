import Cadence
import Foundation
import Testing

@Suite("Publishers.Merge")
struct MergeTests {
    typealias Upstream = DrivenPublisher<Int, TestError>

    private func makeMerge(
        initialDemand: Subscribers.Demand = .unlimited,
        onValue: @escaping (Int) -> Subscribers.Demand = { _ in .none }
    ) -> (Upstream, Upstream, TestSubscriber<Int, TestError>) {
        let a = Upstream()
        let b = Upstream()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: initialDemand, onValue: onValue)
        Publishers.Merge(a, b).subscribe(subscriber)
        return (a, b, subscriber)
    }

    @Test func interleavesValuesFromBothUpstreams() {
        let (a, b, subscriber) = makeMerge()
        #expect(a.send(1) == .none)
        #expect(b.send(2) == .none)
        #expect(a.send(3) == .none)
        #expect(b.send(4) == .none)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .value(4)])
    }

    @Test func theDownstreamIsSubscribedBeforeTheUpstreams() {
        let a = Upstream()
        let b = Upstream()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .unlimited)
        Publishers.Merge(a, b).subscribe(subscriber)
        // The downstream asked for .unlimited before either upstream subscribed, so each starts unlimited.
        #expect(a.subscription.requests == [.unlimited])
        #expect(b.subscription.requests == [.unlimited])
    }

    @Test func finishesOnlyWhenEveryUpstreamHasFinished() {
        let (a, b, subscriber) = makeMerge()
        a.send(1)
        a.send(completion: .finished)
        #expect(subscriber.completions.isEmpty)
        b.send(2)
        b.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(!a.subscription.isCancelled)
        #expect(!b.subscription.isCancelled)
    }

    @Test func theFirstFailureFailsAtOnceAndCancelsTheOthers() {
        let (a, b, subscriber) = makeMerge()
        a.send(1)
        b.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(.oops))])
        #expect(a.subscription.cancelCount == 1)
        #expect(b.subscription.cancelCount == 0)
        a.send(2)
        a.send(completion: .failure(.other))
        b.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(.oops))])
    }

    @Test func asksEachUpstreamForOneValueAtATime() {
        let (a, b, subscriber) = makeMerge(initialDemand: .max(1))
        #expect(a.subscription.requests == [.max(1)])
        #expect(b.subscription.requests == [.max(1)])

        // Delivered at once: the upstream gets its next `.max(1)` back from `receive(_:)`.
        #expect(a.send(1) == .max(1))
        // No demand left: buffered, and the upstream is not asked again yet.
        #expect(b.send(2) == .none)
        #expect(a.send(3) == .none)
        #expect(subscriber.values == [1])

        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2])
        #expect(b.subscription.requests == [.max(1), .max(1)])
        #expect(a.subscription.requests == [.max(1)])

        subscriber.request(.max(5))
        #expect(subscriber.values == [1, 2, 3])
        #expect(a.subscription.requests == [.max(1), .max(1)])
        #expect(b.subscription.requests == [.max(1), .max(1)])

        #expect(b.send(4) == .max(1))
        #expect(subscriber.values == [1, 2, 3, 4])
    }

    @Test func demandReturnedByTheDownstreamAddsUp() {
        let (a, b, subscriber) = makeMerge(initialDemand: .max(1), onValue: { _ in .max(1) })
        #expect(a.send(1) == .max(1))
        #expect(b.send(2) == .max(1))
        #expect(a.send(3) == .max(1))
        #expect(subscriber.values == [1, 2, 3])
    }

    @Test func unlimitedDemandIsPassedToEveryUpstream() {
        let (a, b, subscriber) = makeMerge(initialDemand: .max(1))
        a.send(1)
        b.send(2)
        subscriber.request(.unlimited)
        #expect(a.subscription.requests == [.max(1), .unlimited])
        #expect(b.subscription.requests == [.max(1), .unlimited])
        #expect(subscriber.values == [1, 2])
        #expect(b.send(3) == .none)
        #expect(a.send(4) == .none)
        #expect(subscriber.values == [1, 2, 3, 4])
    }

    @Test func bufferedValuesGoOutBeforeTheFinish() {
        let (a, b, subscriber) = makeMerge(initialDemand: .max(1))
        a.send(1)
        b.send(2)
        a.send(completion: .finished)
        b.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        // A finished upstream is not asked for more once its buffered value has gone out.
        #expect(b.subscription.requests == [.max(1)])
    }

    @Test func aFailureDropsBufferedValues() {
        let (a, b, subscriber) = makeMerge(initialDemand: .max(1))
        a.send(1)
        b.send(2)
        a.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(.oops))])
        #expect(b.subscription.isCancelled)
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(.oops))])
    }

    @Test func cancelCancelsEveryUpstreamOnceAndStopsDelivery() {
        let (a, b, subscriber) = makeMerge()
        a.send(1)
        subscriber.cancel()
        subscriber.cancel()
        #expect(a.subscription.cancelCount == 1)
        #expect(b.subscription.cancelCount == 1)
        #expect(a.send(2) == .none)
        b.send(completion: .finished)
        a.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func aRequestMadeWhileReceivingDeliversTheBufferAfterwards() {
        let a = Upstream()
        let b = Upstream()
        var subscriber: TestSubscriber<Int, TestError>?
        subscriber = TestSubscriber(
            initialDemand: .max(1),
            onValue: { value in
                if value == 1 {
                    // Buffered while the downstream is still inside receive(_:), delivered once it returns.
                    #expect(b.send(2) == .none)
                    subscriber?.request(.max(1))
                    #expect(subscriber?.values == [1])
                }
                return .none
            })
        Publishers.Merge(a, b).subscribe(subscriber!)
        #expect(a.send(1) == .max(1))
        #expect(subscriber?.values == [1, 2])
        #expect(b.subscription.requests == [.max(1), .max(1)])
    }

    @Test func cancellingWhileReceivingStopsEverything() {
        let a = Upstream()
        let b = Upstream()
        var subscriber: TestSubscriber<Int, TestError>?
        subscriber = TestSubscriber(onValue: { _ in
            subscriber?.cancel()
            return .none
        })
        Publishers.Merge(a, b).subscribe(subscriber!)
        a.send(1)
        b.send(2)
        a.send(completion: .finished)
        b.send(completion: .finished)
        #expect(subscriber?.events == [.subscription, .value(1)])
        #expect(a.subscription.cancelCount == 1)
        #expect(b.subscription.cancelCount == 1)
    }

    @Test func aSecondSubscriptionToASideIsCancelled() {
        let (a, _, subscriber) = makeMerge()
        let extra = Upstream.TestSubscription(AnySubscriber<Int, TestError>())
        a.subscription.downstream.receive(subscription: extra)
        #expect(extra.isCancelled)
        #expect(extra.requests.isEmpty)
        a.send(1)
        #expect(subscriber.values == [1])
    }

    @Test func mergesJustPublishersWithLimitedDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        Just(1).merge(with: Just(2)).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func fusedMergeBuildsAFlatMerge3() {
        let a = Upstream()
        let b = Upstream()
        let c = Upstream()
        let merged: Publishers.Merge3<Upstream, Upstream, Upstream> = Publishers.Merge(a, b).merge(with: c)
        let subscriber = TestSubscriber<Int, TestError>()
        merged.subscribe(subscriber)
        c.send(3)
        a.send(1)
        b.send(2)
        #expect(subscriber.values == [3, 1, 2])
    }

    @Test func fusedMergesReachEveryArity() {
        let merge = Publishers.Merge(Just(1), Just(2))
        let m4: Publishers.Merge4<Just<Int>, Just<Int>, Just<Int>, Just<Int>> = merge.merge(with: Just(3), Just(4))
        #expect(m4.c == Just(3) && m4.d == Just(4))
        let m8 = merge.merge(with: Just(3), Just(4), Just(5), Just(6), Just(7), Just(8))
        #expect(m8.h == Just(8))
        var values: [Int] = []
        _ = m8.sink { values.append($0) }
        #expect(values == [1, 2, 3, 4, 5, 6, 7, 8])
    }

    @Test func isEquatableWhenItsUpstreamsAre() {
        #expect(Publishers.Merge(Just(1), Just(2)) == Publishers.Merge(Just(1), Just(2)))
        #expect(Publishers.Merge(Just(1), Just(2)) != Publishers.Merge(Just(1), Just(3)))
        #expect(Publishers.Merge(Just(1), Just(2)).a == Just(1))
    }

    @Test func describesItselfAsMerge() throws {
        let (a, _, subscriber) = makeMerge()
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Merge")
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Merge")
        let mirror = Mirror(reflecting: subscription)
        #expect(mirror.children.map(\.label) == ["downstream", "upstreamSubscriptions", "demand", "buffered"])
        #expect(String(describing: a.subscription.downstream) == "Merge")
    }

    #if !canImport(Combine) // pins a Cadence decision: the suite records no trap here for Combine to match
    @Test func aZeroRequestAsksForNothing() {
        let (a, b, subscriber) = makeMerge(initialDemand: .none)
        let (requestedOfA, requestedOfB) = (a.subscription.requests, b.subscription.requests)
        subscriber.request(.none)
        a.send(1)
        #expect(a.subscription.requests == requestedOfA)
        #expect(b.subscription.requests == requestedOfB)
        #expect(subscriber.events == [.subscription])
    }
    #endif

    @Test func concurrentUpstreamsDeliverEachValueOnceAndNeverConcurrently() {
        let upstreams = (0..<4).map { _ in CombiningStressPublisher<Int, Never>() }
        let subscriber = CombiningProbeSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        Publishers.Merge4(upstreams[0], upstreams[1], upstreams[2], upstreams[3]).subscribe(subscriber)
        let perUpstream = 2_000
        combiningRunConcurrently(
            upstreams.enumerated().map { index, upstream in
                { upstream.run(Array(index * perUpstream..<(index + 1) * perUpstream)) }
            })
        #expect(subscriber.values.count == 4 * perUpstream)
        #expect(Set(subscriber.values) == Set(0..<4 * perUpstream))
        #expect(subscriber.overlaps == 0)
        #expect(subscriber.excess == 0)
        #expect(subscriber.completions.count == 1)
    }

    @Test func concurrentUpstreamsWithUnlimitedDemandKeepEachUpstreamsOrder() {
        let upstreams = (0..<3).map { _ in CombiningStressPublisher<Int, Never>() }
        let subscriber = CombiningProbeSubscriber<Int, Never>(initialDemand: .unlimited, demandPerValue: .none)
        Publishers.Merge3(upstreams[0], upstreams[1], upstreams[2]).subscribe(subscriber)
        let perUpstream = 3_000
        combiningRunConcurrently(
            upstreams.enumerated().map { index, upstream in
                { upstream.run(Array(index * perUpstream..<(index + 1) * perUpstream)) }
            })
        let values = subscriber.values
        #expect(values.count == 3 * perUpstream)
        for index in 0..<3 {
            let fromUpstream = values.filter { $0 / perUpstream == index }
            #expect(fromUpstream == Array(index * perUpstream..<(index + 1) * perUpstream))
        }
        #expect(subscriber.overlaps == 0)
        #expect(subscriber.completions.count == 1)
    }

    @Test func concurrentCancelStopsDeliveryAndCancelsEveryUpstream() {
        let upstreams = (0..<3).map { _ in CombiningStressPublisher<Int, Never>() }
        let subscriber = CombiningProbeSubscriber<Int, Never>(initialDemand: .unlimited, demandPerValue: .none)
        Publishers.Merge3(upstreams[0], upstreams[1], upstreams[2]).subscribe(subscriber)
        let countAtCancel = combiningCancelWhileRunning(upstreams, subscriber)
        #expect(upstreams.allSatisfy { $0.isCancelled })
        // At most the one value that was being delivered when cancel() ran arrives afterwards.
        #expect(subscriber.values.count <= countAtCancel + 1)
        #expect(subscriber.completions.isEmpty)
        #expect(subscriber.overlaps == 0)
    }
}
