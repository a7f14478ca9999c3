import Cadence
import Foundation
import Testing

@Suite("Publishers.ReplaceError")
struct ReplaceErrorTests {
    @Test func passesValuesAndFinishedThrough() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { publisher in
            let replacing: Publishers.ReplaceError<DrivenPublisher<Int, TestError>> = publisher.replaceError(with: 0)
            return replacing
        }
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func replacesTheFailureWithTheElementThenFinishes() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.replaceError(with: 42) }
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value(1), .value(42), .completion(.finished)])
        #expect(upstream.subscription.cancelCount == 0)
    }

    @Test func replacementWaitsForDemandWhenTheDownstreamHasNone() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self, initialDemand: .max(1)) {
            $0.replaceError(with: 42)
        }
        #expect(upstream.send(1) == .none)
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(42), .completion(.finished)])
        #expect(upstream.subscription.requests == [.max(1)])
        subscriber.request(.max(1))
        #expect(subscriber.events.count == 4)
    }

    @Test func failureBeforeAnyRequestWaitsForTheFirstOne() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self, initialDemand: .none) {
            $0.replaceError(with: 42)
        }
        upstream.send(completion: .failure(.oops))
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.unlimited)
        #expect(subscriber.events == [.subscription, .value(42), .completion(.finished)])
        #expect(upstream.subscription.requests == [])
    }

    @Test func demandReturnedFromReceiveCountsForTheReplacement() {
        let (upstream, subscriber) = makeTransformPipeline(
            Int.self, TestError.self, initialDemand: .max(1), onValue: { _ in .max(1) }
        ) { $0.replaceError(with: 42) }
        #expect(upstream.send(1) == .max(1))
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value(1), .value(42), .completion(.finished)])
    }

    @Test func passesDemandThroughAndAnswersWithTheDownstreamsDemand() {
        let (upstream, subscriber) = makeTransformPipeline(
            Int.self, TestError.self, initialDemand: .max(1), onValue: { $0 == 1 ? .max(2) : .none }
        ) { $0.replaceError(with: 0) }
        #expect(upstream.subscription.requests == [.max(1)])
        #expect(upstream.send(1) == .max(2))
        #expect(upstream.send(2) == .none)
        subscriber.request(.max(3))
        #expect(upstream.subscription.requests == [.max(1), .max(3)])
        #expect(upstream.subscription.answered == [.max(2), .none])
    }

    /// As in Combine: the subscription keeps its subscriber until the upstream lets go of it.
    @Test func cancelKeepsTheSubscriberUntilTheUpstreamLetsGo() {
        SingleUpstreamOperatorChecks.cancelKeepsTheSubscriberUntilTheUpstreamLetsGo { $0.replaceError(with: 42) }
    }

    @Test func cancelReachesUpstreamOnceAndNothingFollows() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.replaceError(with: 0) }
        upstream.send(1)
        subscriber.cancel()
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(upstream.subscription.downstream.receive(2) == .none)
        upstream.subscription.downstream.receive(completion: .failure(.oops))
        #expect(upstream.subscription.cancelCount == 1)
        #expect(upstream.subscription.requests == [.unlimited])
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func aSecondSubscriptionFromUpstreamIsCancelled() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.replaceError(with: 0) }
        let second = DrivenPublisher<Int, TestError>.TestSubscription(upstream.subscription.downstream)
        upstream.subscription.downstream.receive(subscription: second)
        #expect(second.cancelCount == 1)
        #expect(subscriber.subscriptions == 1)
    }

    @Test func isEquatableWhenItsUpstreamAndOutputAre() {
        #expect(TaggedPublisher(1).replaceError(with: 0) == TaggedPublisher(1).replaceError(with: 0))
        #expect(TaggedPublisher(1).replaceError(with: 0) != TaggedPublisher(1).replaceError(with: 2))
    }

    /// The downstream gets the subscription only with the upstream's: a cancel before that can come only from a caller
    /// that kept the subscriber, and Combine ignores it.
    @Test func aCancelBeforeTheUpstreamSubscriptionIsIgnored() throws {
        let upstream = SubscriberKeepingPublisher<Int>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.replaceError(with: 0).subscribe(subscriber)
        try #require(upstream.subscriber as? any Subscription).cancel()
        let source = DrivenPublisher<Int, TestError>()
        source.subscribe(TestSubscriber<Int, TestError>(initialDemand: .none))
        upstream.send(subscription: source.subscription)
        #expect(source.subscription.requests == [.max(2)])
        #expect(source.subscription.cancelCount == 0)
        #expect(subscriber.events == [.subscription])
    }

    @Test func describesItselfAsReplaceError() throws {
        let (_, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.replaceError(with: 0) }
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "ReplaceError")
        #expect(
            (subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "ReplaceError")
        #expect(subscriber.transformSubscriptionMirror?.children.isEmpty == true)
    }

    @Test func concurrentFailureAndRequestDeliverTheReplacementExactlyOnce() {
        for _ in 0..<100 {
            let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self, initialDemand: .none) {
                $0.replaceError(with: 42)
            }
            let connection = upstream.subscription
            DispatchQueue.concurrentPerform(iterations: 2) { lane in
                if lane == 0 {
                    connection.downstream.receive(completion: .failure(.oops))
                } else {
                    subscriber.request(.max(1))
                }
            }
            #expect(subscriber.events == [.subscription, .value(42), .completion(.finished)])
        }
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoDemandTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (_, subscriber) = makeTransformPipeline(Int.self, TestError.self, initialDemand: .none) {
                $0.replaceError(with: 0)
            }
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "ReplaceError")
    }
    #endif

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func aValueBeyondTheDownstreamsDemandTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (upstream, _) = makeTransformPipeline(Int.self, TestError.self, initialDemand: .max(1)) {
                $0.replaceError(with: 0)
            }
            upstream.send(1)
            upstream.send(2)
        }
        #expect(
            result?.standardErrorText.contains(
                "ReplaceError: received a value while the downstream had no outstanding demand; "
                    + "a publisher must not send more values than requested") == true)
    }
    #endif
}
