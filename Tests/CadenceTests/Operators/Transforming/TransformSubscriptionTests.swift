import Cadence
import Foundation
import Testing

/// The shared machinery of the stateful per-value operators, seen through `tryMap`, which uses it as is.
@Suite("TransformSubscription")
struct TransformSubscriptionTests {
    @Test func downstreamGetsTheSubscriptionOnlyOnceTheUpstreamSendsIt() {
        let upstream = TestPublisher<Int, TestError>(sendsSubscriptionAtOnce: false)
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
        let second = TestPublisher<Int, TestError>.TestSubscription(first.downstream)
        first.downstream.receive(subscription: second)
        #expect(second.cancelCount == 1)
        #expect(first.cancelCount == 0)
        #expect(subscriber.subscriptions == 1)
    }

    @Test func completionAfterCompletionIsDropped() {
        let (upstream, subscriber) = makeTransformPipeline(Int.self, TestError.self) { $0.tryMap { $0 } }
        let inner = upstream.subscription.downstream
        inner.receive(completion: .finished)
        inner.receive(completion: .failure(.oops))
        #expect(inner.receive(1) == .none)
        subscriber.request(.max(1))
        #expect(subscriber.transformEventLog == ["subscription", "finished"])
        #expect(upstream.subscription.requests == [.unlimited])
        #expect(upstream.subscription.cancelCount == 0)
    }

    @Test func cancelReleasesTheDownstream() {
        let upstream = TestPublisher<Int, TestError>()
        weak var released: TestSubscriber<Int, any Error>?
        do {
            let subscriber = TestSubscriber<Int, any Error>()
            released = subscriber
            upstream.tryMap { $0 }.subscribe(subscriber)
            subscriber.cancel()
            subscriber.releaseSubscription()
        }
        #expect(released == nil)
        #expect(upstream.subscription.isCancelled)
    }

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
