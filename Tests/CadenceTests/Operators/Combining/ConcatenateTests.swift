import Cadence
import Foundation
import Testing

@Suite("Publishers.Concatenate")
struct ConcatenateTests {
    typealias Upstream = DrivenPublisher<Int, TestError>

    private func make(
        initialDemand: Subscribers.Demand = .unlimited,
        onValue: @escaping (Int) -> Subscribers.Demand = { _ in .none }
    ) -> (Upstream, Upstream, TestSubscriber<Int, TestError>) {
        let prefix = Upstream()
        let suffix = Upstream()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: initialDemand, onValue: onValue)
        prefix.append(suffix).subscribe(subscriber)
        return (prefix, suffix, subscriber)
    }

    @Test func republishesThePrefixThenTheSuffix() {
        let (prefix, suffix, subscriber) = make()
        prefix.send(1)
        prefix.send(2)
        #expect(suffix.subscriptions.isEmpty)
        prefix.send(completion: .finished)
        #expect(suffix.subscriptions.count == 1)
        suffix.send(3)
        suffix.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
        #expect(prefix.subscription.requests == [.unlimited])
        #expect(suffix.subscription.requests == [.unlimited])
    }

    @Test func theDownstreamIsSubscribedWhenThePrefixIs() {
        let prefix = Upstream(sendsSubscriptionAtOnce: false)
        let subscriber = TestSubscriber<Int, TestError>()
        prefix.append(Upstream()).subscribe(subscriber)
        #expect(subscriber.events.isEmpty)
        prefix.subscription.deliver()
        #expect(subscriber.events == [.subscription])
        #expect(prefix.subscription.requests == [.unlimited])
    }

    @Test func theSuffixIsAskedForTheOutstandingDemand() {
        let (prefix, suffix, subscriber) = make(initialDemand: .max(2))
        #expect(prefix.send(1) == .none)
        subscriber.request(.max(3))
        #expect(prefix.subscription.requests == [.max(2), .max(3)])
        prefix.send(completion: .finished)
        #expect(suffix.subscription.requests == [.max(4)])
        subscriber.request(.max(1))
        #expect(suffix.subscription.requests == [.max(4), .max(1)])
        #expect(prefix.subscription.requests == [.max(2), .max(3)])
    }

    @Test func demandReturnedByTheDownstreamCounts() {
        let (prefix, suffix, subscriber) = make(initialDemand: .max(1), onValue: { _ in .max(1) })
        #expect(prefix.send(1) == .max(1))
        prefix.send(completion: .finished)
        #expect(suffix.subscription.requests == [.max(1)])
        #expect(suffix.send(2) == .max(1))
        #expect(subscriber.values == [1, 2])
    }

    @Test func aSuffixWithNothingOutstandingWaitsForARequest() {
        let (prefix, suffix, subscriber) = make(initialDemand: .max(1))
        prefix.send(1)
        prefix.send(completion: .finished)
        #expect(suffix.subscription.requests.isEmpty)
        subscriber.request(.max(2))
        #expect(suffix.subscription.requests == [.max(2)])
    }

    @Test func prefixValuesBeyondTheDemandAreNotDelivered() {
        let (prefix, _, subscriber) = make(initialDemand: .max(1))
        prefix.send(1)
        #expect(prefix.send(2) == .none)
        #expect(subscriber.values == [1])
    }

    @Test func aPrefixFailureEndsItWithoutTheSuffix() {
        let (prefix, suffix, subscriber) = make()
        prefix.send(1)
        prefix.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(.oops))])
        #expect(suffix.subscriptions.isEmpty)
        prefix.send(2)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(.oops))])
    }

    @Test func aSuffixFailureIsForwarded() {
        let (prefix, suffix, subscriber) = make()
        prefix.send(completion: .finished)
        suffix.send(completion: .failure(.oops))
        suffix.send(1)
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
    }

    @Test func cancelDuringThePrefixNeverSubscribesTheSuffix() {
        let (prefix, suffix, subscriber) = make()
        subscriber.cancel()
        subscriber.cancel()
        #expect(prefix.subscription.cancelCount == 1)
        prefix.send(1)
        prefix.send(completion: .finished)
        #expect(suffix.subscriptions.isEmpty)
        #expect(subscriber.events == [.subscription])
    }

    @Test func cancelDuringTheSuffixCancelsIt() {
        let (prefix, suffix, subscriber) = make()
        prefix.send(completion: .finished)
        subscriber.cancel()
        suffix.send(1)
        #expect(suffix.subscription.cancelCount == 1)
        #expect(prefix.subscription.cancelCount == 0)
        #expect(subscriber.events == [.subscription])
    }

    @Test(arguments: [SubscriptionEnding.cancel, .finish, .fail])
    func theDownstreamStaysAfterTheEndUntilTheSubscriptionGoes(ending: SubscriptionEnding) {
        // The upstream as the prefix, then as the suffix.
        expectTheSubscriberStaysUntilTheSubscriptionGoes(ending: ending) { $0.append(Empty()) }
        expectTheSubscriberStaysUntilTheSubscriptionGoes(ending: ending) { Empty().append($0) }
    }

    @Test func appendAndPrependTakeValuesSequencesAndPublishers() {
        let three = Just(3).eraseToAnyPublisher()
        var values: [Int] = []
        let prepended: Publishers.Concatenate<Publishers.Sequence<[Int], Never>, AnyPublisher<Int, Never>> =
            three.prepend(1, 2)
        _ = prepended.sink { values.append($0) }
        _ = three.prepend(stride(from: 0, to: 3, by: 1)).sink { values.append($0) }
        _ = three.prepend(Just(0)).sink { values.append($0) }
        let appended: Publishers.Concatenate<AnyPublisher<Int, Never>, Publishers.Sequence<[Int], Never>> =
            three.append(4, 5)
        _ = appended.sink { values.append($0) }
        _ = three.append(6...7).sink { values.append($0) }
        _ = three.append(Just(8)).sink { values.append($0) }
        #expect(values == [1, 2, 3, 0, 1, 2, 3, 0, 3, 3, 4, 5, 3, 6, 7, 3, 8])
    }

    @Test func isEquatableAndDescribedAsConcatenate() throws {
        let publisher = Just(1).append(Just(2))
        #expect(publisher == Publishers.Concatenate(prefix: Just(1), suffix: Just(2)))
        #expect(publisher != Publishers.Concatenate(prefix: Just(1), suffix: Just(3)))
        #expect(publisher.prefix == Just(1) && publisher.suffix == Just(2))
        let (prefix, suffix, subscriber) = make()
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Concatenate")
        #expect(
            (subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Concatenate")
        #expect(Mirror(reflecting: subscription).children.isEmpty)
        prefix.send(completion: .finished)
        #expect(String(describing: suffix.subscription.downstream) == "Concatenate")
        #expect(prefix.subscription.downstream.combineIdentifier == suffix.subscription.downstream.combineIdentifier)
    }

    @Test func aZeroRequestIsPassedOn() {
        let (prefix, _, subscriber) = make(initialDemand: .none)
        subscriber.request(.none)
        #expect(prefix.subscription.requests == [.none])
    }

    @Test func concurrentRequestsAndUpstreamsDeliverEverythingInOrder() {
        let prefix = CombiningStressPublisher<Int, Never>()
        let suffix = CombiningStressPublisher<Int, Never>()
        let subscriber = CombiningProbeSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .none)
        prefix.append(suffix).subscribe(subscriber)
        let count = 2_000
        combiningRunConcurrently([
            { prefix.run(Array(0..<count)) },
            { suffix.run(Array(count..<2 * count)) },
            {
                for _ in 0..<(2 * count) {
                    subscriber.request(.max(1))
                }
            },
        ])
        #expect(subscriber.values == Array(0..<2 * count))
        #expect(subscriber.overlaps == 0)
        #expect(subscriber.excess == 0)
        #expect(subscriber.completions.count == 1)
    }
}
