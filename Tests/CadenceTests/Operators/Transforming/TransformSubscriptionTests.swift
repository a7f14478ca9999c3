import Cadence
import Foundation
import Testing

/// The shared machinery of the stateful per-value operators, seen through `tryMap`, which uses it as is.
@Suite("TransformSubscription")
struct TransformSubscriptionTests {
    @Test func downstreamGetsTheSubscriptionOnlyOnceTheUpstreamSendsIt() {
        let upstream = DrivenPublisher<Int, TestError>(sendsSubscriptionAtOnce: false)
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(2))
        upstream.tryMap { $0 }.subscribe(subscriber)
        #expect(subscriber.transformEventLog == [])
        upstream.subscription.deliver()
        #expect(subscriber.transformEventLog == ["subscription"])
        #expect(upstream.subscription.requests == [.max(2)])
    }

    @Test func aSecondSubscriptionFromUpstreamIsCancelled() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.tryMap { $0 } }
        let first = upstream.subscription
        let second = DrivenPublisher<Int, TestError>.TestSubscription(first.downstream)
        first.downstream.receive(subscription: second)
        #expect(second.cancelCount == 1)
        #expect(first.cancelCount == 0)
        #expect(subscriber.subscriptions == 1)
    }

    @Test func completionAfterCompletionIsDropped() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.tryFilter { _ in true } }
        let inner = upstream.subscription.downstream
        inner.receive(completion: .finished)
        inner.receive(completion: .failure(.oops))
        #expect(inner.receive(1) == .none)
        subscriber.request(.max(1))
        #expect(subscriber.transformEventLog == ["subscription", "finished"])
        #expect(upstream.subscription.requests == [.unlimited])
        #expect(upstream.subscription.cancelCount == 0)
    }

    /// As in Combine, an ended subscription keeps its downstream until the upstream lets go of it; a `sink` breaks
    /// the cycle by dropping its subscription when it completes or is cancelled.
    @Test func cancelKeepsTheDownstreamUntilTheUpstreamLetsGo() {
        weak var released: TestSubscriber<Int, any Error>?
        var upstream: DrivenPublisher<Int, TestError>? = DrivenPublisher<Int, TestError>()
        do {
            let subscriber = TestSubscriber<Int, any Error>()
            released = subscriber
            upstream?.tryMap { $0 }.subscribe(subscriber)
            subscriber.cancel()
            subscriber.releaseSubscription()
        }
        #expect(released != nil)
        #expect(upstream?.subscription.isCancelled == true)
        upstream = nil
        #expect(released == nil)
    }

    // MARK: Calls outside the subscribed span, as each Combine counterpart meets them

    @Test func aStrictSubscriptionCancelledBeforeItsSubscriptionCancelsTheOneThatArrives() throws {
        let outcome = try cancelBeforeTheSubscription { $0.tryFilter { _ in true } }
        #expect(outcome.upstreamCancels == 1)
        #expect(outcome.downstreamSubscriptions == 0)
    }

    @Test(arguments: ["DropWhile", "TryMap", "TryScan", "Output"])
    func otherSubscriptionsIgnoreACancelBeforeTheirSubscription(operator name: String) throws {
        let outcome =
            switch name {
            case "DropWhile": try cancelBeforeTheSubscription { $0.drop { $0 < 0 } }
            case "TryMap": try cancelBeforeTheSubscription { $0.tryMap { $0 } }
            case "TryScan": try cancelBeforeTheSubscription { $0.tryScan(0, +) }
            default: try cancelBeforeTheSubscription { $0.prefix(2) }
            }
        #expect(outcome.upstreamCancels == 0)
        #expect(outcome.downstreamSubscriptions == 1)
    }

    @Test func aLenientSubscriptionIgnoresValuesAndCompletionsBeforeItsSubscription() {
        let upstream = DrivenPublisher<Int, TestError>(sendsSubscriptionAtOnce: false)
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.drop { $0 < 0 }.subscribe(subscriber)
        let inner = upstream.subscription.downstream
        #expect(inner.receive(1) == .none)
        inner.receive(completion: .finished)
        upstream.subscription.deliver()
        upstream.send(2)
        #expect(subscriber.events.map(\.description) == ["subscription", "value(2)"])
    }

    @Test func aPassThroughSubscriptionDeliversValuesBeforeItsSubscription() {
        let upstream = DrivenPublisher<Int, TestError>(sendsSubscriptionAtOnce: false)
        let subscriber = TestSubscriber<Int, any Error>(onValue: { _ in .max(4) })
        upstream.tryScan(10, +).subscribe(subscriber)
        let inner = upstream.subscription.downstream
        #expect(inner.receive(1) == .max(4))
        inner.receive(completion: .finished)
        #expect(subscriber.transformEventLog == ["value(11)"])
    }

    /// `tryScan`, unlike `tryMap`, fails only a live subscription: a throw after the end sends nothing.
    @Test func aTryScanThrowAfterTheEndSendsNothing() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self, onValue: { _ in .max(1) }) {
            $0.tryScan(0) { sum, value in
                if value < 0 { throw TestError.other }
                return sum + value
            }
        }
        upstream.send(completion: .finished)
        let inner = upstream.subscription.downstream
        #expect(inner.receive(2) == .max(1))
        #expect(inner.receive(-1) == .none)
        #expect(subscriber.transformEventLog == ["subscription", "finished", "value(2)"])
    }

    #if !canImport(Combine) // Cadence's messages; Combine traps with its own
    @Test func aStrictSubscriptionTrapsOnAValueBeforeItsSubscription() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>(sendsSubscriptionAtOnce: false)
            upstream.tryFilter { _ in true }.subscribe(TestSubscriber<Int, any Error>())
            _ = upstream.subscription.downstream.receive(1)
        }
        #expect(
            result?.standardErrorText.contains(
                "TryFilter: received a value before its subscription; an upstream sends values only after it") == true)
    }

    @Test func aStrictSubscriptionTrapsOnACompletionBeforeItsSubscription() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>(sendsSubscriptionAtOnce: false)
            upstream.removeDuplicates().subscribe(TestSubscriber<Int, TestError>())
            upstream.subscription.downstream.receive(completion: .finished)
        }
        #expect(
            result?.standardErrorText.contains(
                "RemoveDuplicates: received a completion before its subscription; an upstream completes only after it")
                == true)
    }

    @Test func aStrictSubscriptionTrapsOnARequestBeforeItSentItsSubscription() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = RawSubscriberPublisher<Int, Never>()
            upstream.prefix { $0 < 3 }.subscribe(TestSubscriber<Int, Never>())
            (upstream.subscriber as? any Subscription)?.request(.max(1))
        }
        #expect(
            result?.standardErrorText.contains(
                "PrefixWhile: request(_:) was called before it sent its subscription; a subscriber requests only "
                    + "through a subscription it received") == true)
    }
    #endif

    @Test func concurrentEventsRequestsAndCancelEndTheSubscriptionOnce() {
        for _ in 0..<50 {
            let (upstream, subscriber) = makeTransformPipeline(
                Int.self, TestError.self, initialDemand: .max(1)
            ) { $0.tryMap { $0 } }
            let connection = upstream.subscription
            DispatchQueue.concurrentPerform(iterations: 3) { lane in
                switch lane {
                case 0:
                    for value in 0..<200 { _ = connection.downstream.receive(value) }
                    connection.downstream.receive(completion: .finished)
                case 1:
                    for _ in 0..<50 { subscriber.request(.max(1)) }
                default:
                    subscriber.cancel()
                }
            }
            let values = subscriber.values
            #expect(values == Array(0..<values.count))
            #expect(subscriber.completions.count <= 1)
            #expect(upstream.subscription.cancelCount + subscriber.completions.count == 1)
        }
    }
}
