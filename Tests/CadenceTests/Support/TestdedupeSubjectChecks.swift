import Cadence
import Testing

/// What every subject's subscriptions share about letting go of their subscriber and their subject, each check run
/// against the subject a mirrored test file makes. Failures point at the caller.
enum SubjectReleaseChecks {
    /// A subscription keeps its subject and its subscriber alive until it is cancelled, then lets go of both.
    static func cancelReleasesTheSubscriberAndTheSubject<S: Subject>(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeSubject: () -> S
    ) where S.Output == Int, S.Failure == TestError {
        weak var weakSubject: S?
        weak var weakSubscriber: TestSubscriber<Int, TestError>?
        var subscription: (any Subscription)?
        do {
            let subject = makeSubject()
            let subscriber = TestSubscriber<Int, TestError>()
            weakSubject = subject
            weakSubscriber = subscriber
            subject.subscribe(subscriber)
            subscription = subscriber.subscription
            subscriber.releaseSubscription()
        }
        #expect(weakSubject != nil, sourceLocation: sourceLocation)
        #expect(weakSubscriber != nil, sourceLocation: sourceLocation)
        subscription?.cancel()
        #expect(weakSubject == nil, sourceLocation: sourceLocation)
        #expect(weakSubscriber == nil, sourceLocation: sourceLocation)
    }

    /// The subject holds a subscriber nobody else holds until it completes with `completion`, then lets go of it
    /// while the subscription itself lives on.
    static func completionReleasesTheSubscriber<S: Subject>(
        completion: Subscribers.Completion<TestError>,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeSubject: () -> S
    ) where S.Output == Int, S.Failure == TestError {
        let subject = makeSubject()
        weak var weakSubscriber: TestSubscriber<Int, TestError>?
        var subscription: (any Subscription)?
        do {
            let subscriber = TestSubscriber<Int, TestError>()
            weakSubscriber = subscriber
            subject.subscribe(subscriber)
            subscription = subscriber.subscription
            subscriber.releaseSubscription()
        }
        #expect(weakSubscriber != nil, sourceLocation: sourceLocation)
        subject.send(completion: completion)
        #expect(weakSubscriber == nil, sourceLocation: sourceLocation)
        #expect(subscription != nil, sourceLocation: sourceLocation)
    }
}
