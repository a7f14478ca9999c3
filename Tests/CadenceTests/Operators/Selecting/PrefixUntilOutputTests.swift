import Cadence
import Foundation
import Testing

@Suite("Publishers.PrefixUntilOutput")
struct PrefixUntilOutputTests {
    typealias Upstream = DrivenPublisher<Int, TestError>
    typealias Trigger = DrivenPublisher<String, Never>

    private func make(
        initialDemand: Subscribers.Demand = .unlimited,
        onValue: @escaping (Int) -> Subscribers.Demand = { _ in .none }
    ) -> (Upstream, Trigger, TestSubscriber<Int, TestError>) {
        let upstream = Upstream()
        let trigger = Trigger()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: initialDemand, onValue: onValue)
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        return (upstream, trigger, subscriber)
    }

    @Test func republishesValuesUntilTheTriggerEmits() {
        let (upstream, trigger, subscriber) = make()
        upstream.send(1)
        upstream.send(2)
        #expect(trigger.send("stop") == .none)
        #expect(upstream.send(3) == .none)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(upstream.subscription.cancelCount == 1)
        #expect(trigger.subscription.cancelCount == 0)
    }

    @Test func passesDemandStraightToTheUpstream() {
        let (upstream, trigger, subscriber) = make(initialDemand: .max(2), onValue: { _ in .max(3) })
        #expect(upstream.subscription.requests == [.max(2)])
        #expect(trigger.subscription.requests == [.max(1)])
        #expect(upstream.send(1) == .max(3))
        subscriber.request(.max(5))
        #expect(upstream.subscription.requests == [.max(2), .max(5)])
        #expect(trigger.subscription.requests == [.max(1)])
    }

    @Test func forwardsTheUpstreamsCompletionAndCancelsTheTrigger() {
        let (upstream, trigger, subscriber) = make()
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(.oops))])
        #expect(trigger.subscription.cancelCount == 1)
        trigger.send("stop")
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(.oops))])
    }

    @Test func ignoresATriggerThatCompletesWithoutOutput() {
        let upstream = Upstream()
        let trigger = DrivenPublisher<String, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        trigger.send(completion: .failure(.oops))
        upstream.send(1)
        #expect(subscriber.events == [.subscription, .value(1)])
        #expect(!upstream.subscription.isCancelled)
    }

    /// As in Combine, a trigger before the upstream's subscription finishes the subscriber at once; the subscription
    /// that comes afterwards is cancelled and not handed on.
    @Test func aTriggerBeforeTheUpstreamSubscribesFinishesAtOnce() {
        let upstream = Upstream(sendsSubscriptionAtOnce: false)
        let trigger = Trigger()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        trigger.send("stop")
        #expect(subscriber.events == [.completion(.finished)])
        upstream.subscription.deliver()
        #expect(subscriber.events == [.completion(.finished)])
        #expect(upstream.subscription.cancelCount == 1)
        #expect(upstream.subscription.requests.isEmpty)
    }

    /// As in Combine, what the upstream sends before its subscription is dropped: a value is answered `.none`, a
    /// completion goes nowhere (and a subscription after it is cancelled).
    @Test func eventsBeforeTheSubscriptionAreDropped() {
        let upstream = Upstream(sendsSubscriptionAtOnce: false)
        let trigger = Trigger()
        let subscriber = TestSubscriber<Int, TestError>(onValue: { _ in .max(1) })
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        #expect(upstream.subscription.downstream.receive(1) == .none)
        upstream.subscription.downstream.receive(completion: .finished)
        upstream.subscription.deliver()
        #expect(subscriber.events.isEmpty)
        #expect(upstream.subscription.cancelCount == 1)
        #expect(trigger.subscription.cancelCount == 1)
    }

    @Test func aTriggerDuringDeliveryFinishesAfterIt() {
        let upstream = Upstream()
        let trigger = Trigger()
        let subscriber = TestSubscriber<Int, TestError>(onValue: { value in
            if value == 2 {
                trigger.send("stop")
            }
            return .none
        })
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func cancelCancelsBothOnce() {
        let (upstream, trigger, subscriber) = make()
        subscriber.cancel()
        subscriber.cancel()
        upstream.send(1)
        trigger.send("stop")
        #expect(upstream.subscription.cancelCount == 1)
        #expect(trigger.subscription.cancelCount == 1)
        #expect(subscriber.events == [.subscription])
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let (upstream, trigger, subscriber) = make()
        let extraUpstream = Upstream.TestSubscription(AnySubscriber<Int, TestError>())
        let extraTrigger = Trigger.TestSubscription(AnySubscriber<String, Never>())
        upstream.subscription.downstream.receive(subscription: extraUpstream)
        trigger.subscription.downstream.receive(subscription: extraTrigger)
        #expect(extraUpstream.isCancelled)
        #expect(extraTrigger.isCancelled)
        // The first subscriptions are still the ones a cancel reaches.
        #expect(!upstream.subscription.isCancelled)
        subscriber.cancel()
        #expect(upstream.subscription.cancelCount == 1)
        #expect(trigger.subscription.cancelCount == 1)
    }

    /// As in Combine, the subscription has no description, mirror or playground description of its own, and the
    /// subscriber to the trigger shares its identity.
    @Test func hasNoReflectionOfItsOwn() throws {
        let (upstream, trigger, subscriber) = make()
        let subscription = try #require(subscriber.subscription)
        #expect(!(subscription is any CustomStringConvertible))
        #expect(!(subscription is any CustomReflectable))
        #expect(!(subscription is any CustomPlaygroundDisplayConvertible))
        #expect(String(describing: subscription).contains("PrefixUntilOutput"))
        #expect(upstream.subscription.downstream.combineIdentifier == trigger.subscription.downstream.combineIdentifier)
        let publisher = Just(1).prefix(untilOutputFrom: Just("x"))
        #expect(publisher.upstream == Just(1) && publisher.other == Just("x"))
    }

    /// As in Combine, a request for nothing is passed on to the upstream rather than trapped.
    @Test func aRequestForNothingIsPassedOn() {
        let (upstream, _, subscriber) = make(initialDemand: .none)
        subscriber.request(.none)
        #expect(upstream.subscription.requests == [.none])
    }

    @Test func aTriggerFromAnotherThreadCutsAnUnbrokenPrefix() {
        let upstream = CombiningStressPublisher<Int, Never>()
        let trigger = CombiningStressPublisher<Int, Never>()
        let subscriber = CombiningProbeSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        let count = 20_000
        combiningRunConcurrently([
            { upstream.run(Array(0..<count)) },
            {
                usleep(200)
                trigger.run([0], finish: false)
            },
        ])
        let values = subscriber.values
        #expect(values == Array(0..<values.count))
        #expect(subscriber.overlaps == 0)
        #expect(subscriber.excess == 0)
        #expect(subscriber.completions.count == 1)
    }
}
