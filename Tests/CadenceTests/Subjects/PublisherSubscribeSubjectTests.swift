import Cadence
import Testing

@Suite("Publisher.subscribe(_:) to a subject")
struct PublisherSubscribeSubjectTests {
    typealias Subject = PassthroughSubject<Int, TestError>

    @Test func currentValueSubjectRequestsUnlimitedAtOnce() {
        let upstream = DrivenPublisher<Int, TestError>()
        let subject = CurrentValueSubject<Int, TestError>(0)
        let cancellable = upstream.subscribe(subject)
        #expect(upstream.subscription.requests == [.unlimited])
        upstream.send(5)
        upstream.send(completion: .finished)
        #expect(subject.value == 5)
        let late = TestSubscriber<Int, TestError>()
        subject.subscribe(late)
        #expect(late.events == [.subscription, .completion(.finished)])
        withExtendedLifetime(cancellable) {}
    }

    @Test func aSecondUpstreamSubscriptionIsCancelled() {
        let subject = Subject()
        let upstream = DrivenPublisher<Int, TestError>(sendsSubscriptionAtOnce: false)
        let cancellable = upstream.subscribe(subject)
        let first = upstream.subscription
        first.deliver()
        let second = DrivenPublisher<Int, TestError>.TestSubscription(first.downstream)
        second.deliver()
        #expect(second.cancelCount == 1)
        #expect(first.cancelCount == 0)
        withExtendedLifetime(cancellable) {}
    }

    @Test func forwardsAnUpstreamPublisher() {
        let upstream = DrivenPublisher<Int, TestError>()
        let subject = Subject()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        subject.subscribe(subscriber)
        let cancellable = upstream.subscribe(subject)
        #expect(upstream.subscription.requests == [])
        subscriber.request(.max(1))
        #expect(upstream.subscription.requests == [.unlimited])
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(.oops))])
        cancellable.cancel()
        #expect(!upstream.subscription.isCancelled)
    }

    @Test func cancelsTheUpstreamWhenCancelled() {
        let upstream = DrivenPublisher<Int, TestError>()
        let subject = Subject()
        let subscriber = TestSubscriber<Int, TestError>()
        subject.subscribe(subscriber)
        let cancellable = upstream.subscribe(subject)
        upstream.send(1)
        cancellable.cancel()
        cancellable.cancel()
        #expect(upstream.subscription.cancelCount == 1)
        upstream.send(2)
        #expect(subscriber.values == [1])
    }

    @Test func describesItselfAsSubject() {
        let upstream = DrivenPublisher<Int, TestError>()
        let subject = Subject()
        let cancellable = upstream.subscribe(subject)
        #expect(String(describing: upstream.subscription.downstream) == "Subject")
        #expect(
            subjectsMirrorLabels(of: upstream.subscription.downstream)
                == ["downstreamSubject", "upstreamSubscription", "subject"])
        withExtendedLifetime(cancellable) {}
    }

    @Test func cancelsTheUpstreamWhenTheSubjectGoesAway() {
        let upstream = DrivenPublisher<Int, TestError>()
        var cancellable: AnyCancellable?
        do {
            let subject = Subject()
            cancellable = upstream.subscribe(subject)
            #expect(upstream.subscription.cancelCount == 0)
        }
        #expect(upstream.subscription.cancelCount == 1)
        cancellable?.cancel()
        #expect(upstream.subscription.cancelCount == 1)
    }
}
