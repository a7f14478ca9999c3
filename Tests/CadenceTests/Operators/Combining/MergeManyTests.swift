import Cadence
import Testing

@Suite("Publishers.MergeMany")
struct MergeManyTests {
    typealias Upstream = DrivenPublisher<Int, TestError>

    @Test func mergesAnyNumberOfUpstreams() {
        let upstreams = (0..<5).map { _ in Upstream() }
        let subscriber = TestSubscriber<Int, TestError>()
        Publishers.MergeMany(upstreams).subscribe(subscriber)
        upstreams[3].send(3)
        upstreams[0].send(0)
        upstreams[4].send(4)
        upstreams.forEach { $0.send(completion: .finished) }
        #expect(subscriber.events == [.subscription, .value(3), .value(0), .value(4), .completion(.finished)])
    }

    @Test func mergeWithASameTypedPublisherMakesAMergeMany() {
        let a = Upstream()
        let b = Upstream()
        let c = Upstream()
        let merged: Publishers.MergeMany<Upstream> = a.merge(with: b).merge(with: c)
        #expect(merged.publishers.count == 3)
        let subscriber = TestSubscriber<Int, TestError>()
        merged.subscribe(subscriber)
        c.send(3)
        b.send(2)
        a.send(1)
        #expect(subscriber.values == [3, 2, 1])
    }

    @Test func variadicAndSequenceInitialisersKeepThePublishers() {
        #expect(Publishers.MergeMany(Just(1), Just(2)).publishers == [Just(1), Just(2)])
        #expect(Publishers.MergeMany([Just(1), Just(2), Just(3)]).publishers.count == 3)
        #expect(Publishers.MergeMany(Just(1), Just(2)) == Publishers.MergeMany([Just(1), Just(2)]))
        #expect(Publishers.MergeMany(Just(1)) != Publishers.MergeMany(Just(2)))
    }

    @Test func withNoUpstreamItFinishesAtOnce() {
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        Publishers.MergeMany<Upstream>([]).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func asksEachUpstreamForOneValueAtATime() {
        let upstreams = (0..<3).map { _ in Upstream() }
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(2))
        Publishers.MergeMany(upstreams).subscribe(subscriber)
        #expect(upstreams.map(\.subscription.requests) == [[.max(1)], [.max(1)], [.max(1)]])
        #expect(upstreams[2].send(1) == .max(1))
        #expect(upstreams[2].send(2) == .max(1))
        #expect(upstreams[0].send(3) == .none)
        #expect(upstreams[1].send(4) == .none)
        #expect(subscriber.values == [1, 2])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2, 3])
        #expect(upstreams.map(\.subscription.requests) == [[.max(1), .max(1)], [.max(1)], [.max(1)]])
    }

    @Test func failureCancelsTheOthers() {
        let upstreams = (0..<3).map { _ in Upstream() }
        let subscriber = TestSubscriber<Int, TestError>()
        Publishers.MergeMany(upstreams).subscribe(subscriber)
        upstreams[1].send(completion: .failure(.oops))
        upstreams[0].send(1)
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
        #expect(upstreams.map(\.subscription.cancelCount) == [1, 0, 1])
    }

    @Test func cancelCancelsEveryUpstream() {
        let upstreams = (0..<3).map { _ in Upstream() }
        let subscriber = TestSubscriber<Int, TestError>()
        Publishers.MergeMany(upstreams).subscribe(subscriber)
        subscriber.cancel()
        upstreams[0].send(1)
        #expect(upstreams.map(\.subscription.cancelCount) == [1, 1, 1])
        #expect(subscriber.events == [.subscription])
    }

    @Test func describesItselfAsMerge() throws {
        let subscriber = TestSubscriber<Int, TestError>()
        Publishers.MergeMany(Upstream()).subscribe(subscriber)
        #expect(String(describing: try #require(subscriber.subscription)) == "Merge")
    }

    @Test func concurrentUpstreamsDeliverEachValueOnceAndNeverConcurrently() {
        let upstreams = (0..<6).map { _ in CombiningStressPublisher<Int, Never>() }
        let subscriber = CombiningProbeSubscriber<Int, Never>(initialDemand: .max(3), demandPerValue: .max(1))
        Publishers.MergeMany(upstreams).subscribe(subscriber)
        let perUpstream = 1_000
        combiningRunConcurrently(
            upstreams.enumerated().map { index, upstream in
                { upstream.run(Array(index * perUpstream..<(index + 1) * perUpstream)) }
            })
        #expect(subscriber.values.count == 6 * perUpstream)
        #expect(Set(subscriber.values).count == 6 * perUpstream)
        #expect(subscriber.overlaps == 0)
        #expect(subscriber.excess == 0)
        #expect(subscriber.completions.count == 1)
    }
}
