import Cadence
import Foundation
import Testing

@Suite("Publishers.DropUntilOutput")
struct DropUntilOutputTests {
    typealias Upstream = DrivenPublisher<Int, TestError>
    typealias Trigger = DrivenPublisher<String, TestError>

    private func make(
        initialDemand: Subscribers.Demand = .unlimited,
        onValue: @escaping (Int) -> Subscribers.Demand = { _ in .none }
    ) -> (Upstream, Trigger, TestSubscriber<Int, TestError>) {
        let upstream = Upstream()
        let trigger = Trigger()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: initialDemand, onValue: onValue)
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        return (upstream, trigger, subscriber)
    }

    @Test func dropsValuesUntilTheTriggerEmits() {
        let (upstream, trigger, subscriber) = make()
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        #expect(trigger.send("go") == .none)
        upstream.send(3)
        upstream.send(4)
        #expect(subscriber.events == [.subscription, .value(3), .value(4)])
    }

    @Test func passesDemandStraightToTheUpstream() {
        let (upstream, trigger, subscriber) = make(initialDemand: .max(3), onValue: { _ in .max(4) })
        #expect(upstream.subscription.requests == [.max(3)])
        #expect(trigger.subscription.requests == [.max(1)])
        #expect(upstream.send(1) == .none)
        trigger.send("go")
        #expect(upstream.send(2) == .max(4))
        subscriber.request(.max(2))
        #expect(upstream.subscription.requests == [.max(3), .max(2)])
        #expect(trigger.subscription.requests == [.max(1)])
        #expect(subscriber.values == [2])
    }

    @Test func aLateUpstreamGetsTheDemandLeftAfterDroppedValues() {
        let upstream = Upstream(sendsSubscriptionAtOnce: false)
        let trigger = Trigger()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(10))
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        subscriber.request(.max(4))
        upstream.subscription.deliver()
        #expect(upstream.subscription.requests == [.max(14)])
    }

    @Test func finishesWhenTheTriggerFinishesFirst() {
        let (upstream, trigger, subscriber) = make()
        upstream.send(1)
        trigger.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(upstream.subscription.cancelCount == 1)
        // As in Combine, the trigger's completion before its first value does not end the subscription: a second
        // one goes on to the subscriber too.
        trigger.send(completion: .finished)
        #expect(upstream.send(2) == .none)
        #expect(subscriber.events == [.subscription, .completion(.finished), .completion(.finished)])
        #expect(upstream.subscription.cancelCount == 1)
    }

    #if !canImport(Combine) // Combine traps here too, with a message of its own
    @Test func aDroppedValueNobodyRequestedTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
            upstream.drop(untilOutputFrom: DrivenPublisher<String, TestError>()).subscribe(subscriber)
            upstream.send(1)
            upstream.send(2)
        }
        #expect(
            result?.standardErrorText.contains(
                "DropUntilOutput: received a value it did not request; a publisher must not send more values than "
                    + "its subscriber requested") == true)
    }
    #endif

    @Test func failsWhenTheTriggerFailsFirst() {
        let (upstream, trigger, subscriber) = make()
        trigger.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
        #expect(upstream.subscription.cancelCount == 1)
    }

    @Test func ignoresTheTriggersCompletionOnceTriggered() {
        let (upstream, trigger, subscriber) = make()
        trigger.send("go")
        trigger.send(completion: .failure(.oops))
        upstream.send(1)
        #expect(subscriber.events == [.subscription, .value(1)])
        #expect(!upstream.subscription.isCancelled)
        #expect(!trigger.subscription.isCancelled)
    }

    @Test func forwardsTheUpstreamsCompletion() {
        let (upstream, trigger, subscriber) = make()
        trigger.send("go")
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        upstream.send(2)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(.oops))])
    }

    @Test func theUpstreamFinishingBeforeTheTriggerCancelsTheTrigger() {
        let (upstream, trigger, subscriber) = make()
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(trigger.subscription.cancelCount == 1)
        trigger.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func cancelCancelsBothOnce() {
        let (upstream, trigger, subscriber) = make()
        subscriber.cancel()
        subscriber.cancel()
        trigger.send("go")
        upstream.send(1)
        #expect(upstream.subscription.cancelCount == 1)
        #expect(trigger.subscription.cancelCount == 1)
        #expect(subscriber.events == [.subscription])
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let (upstream, trigger, _) = make()
        let extraUpstream = Upstream.TestSubscription(AnySubscriber<Int, TestError>())
        let extraTrigger = Trigger.TestSubscription(AnySubscriber<String, TestError>())
        upstream.subscription.downstream.receive(subscription: extraUpstream)
        trigger.subscription.downstream.receive(subscription: extraTrigger)
        #expect(extraUpstream.isCancelled)
        #expect(extraTrigger.isCancelled)
    }

    @Test func bothSubscribersShareOneIdentity() {
        let (upstream, trigger, _) = make()
        #expect(upstream.subscription.downstream.combineIdentifier == trigger.subscription.downstream.combineIdentifier)
    }

    @Test func isEquatableAndDescribedAsDropUntilOutput() throws {
        let publisher = Just(1).drop(untilOutputFrom: Just(2))
        #expect(publisher == Publishers.DropUntilOutput(upstream: Just(1), other: Just(2)))
        #expect(publisher != Publishers.DropUntilOutput(upstream: Just(1), other: Just(3)))
        #expect(publisher.upstream == Just(1) && publisher.other == Just(2))
        let (_, trigger, subscriber) = make()
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "DropUntilOutput")
        #expect(
            (subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "DropUntilOutput")
        #expect(Mirror(reflecting: subscription).children.isEmpty)
        #expect(String(describing: trigger.subscription.downstream) == "DropUntilOutput")
    }

    /// As in Combine, a request for nothing is passed on to the upstream rather than trapped.
    @Test func aRequestForNothingIsPassedOn() {
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        upstream.drop(untilOutputFrom: DrivenPublisher<String, TestError>()).subscribe(subscriber)
        subscriber.request(.none)
        #expect(upstream.subscription.requests == [.none])
    }

    @Test func aTriggerFromAnotherThreadLetsThroughAnUnbrokenTail() {
        let upstream = CombiningStressPublisher<Int, Never>()
        let trigger = CombiningStressPublisher<Int, Never>()
        // Dropped values use up demand, so the upstream gets unlimited demand to keep it going until the trigger.
        let subscriber = CombiningProbeSubscriber<Int, Never>(initialDemand: .unlimited, demandPerValue: .none)
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        let count = 20_000
        combiningRunConcurrently([
            { upstream.run(Array(0..<count)) },
            {
                usleep(200)
                trigger.run([0], finish: false)
            },
        ])
        let values = subscriber.values
        if let first = values.first {
            #expect(values == Array(first..<count))
        }
        #expect(subscriber.overlaps == 0)
        #expect(subscriber.completions.count == 1)
    }
}
