import Cadence
import Testing

/// What every subject shares — how its subscriptions let go of their subscriber and their subject, how it delivers a
/// value sent from inside `receive(_:)`, how it honours each pattern of demand — each check run against the subject
/// a mirrored test file makes. Failures point at the caller.
enum SharedSubjectChecks {
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

    /// A subscriber that sends `2` from inside its `receive(1)` gets the `2` at once, before the next subscriber gets
    /// the `1`; `expectedEvents` is what both subscribers saw, in order (`"first 1"`, `"second 2"`).
    ///
    /// Returns the subject, so a caller can check more of it.
    @discardableResult
    static func reentrantSendIsDeliveredRecursively<S: Subject>(
        expectedEvents: [String],
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeSubject: () -> S
    ) -> S where S.Output == Int, S.Failure == TestError {
        let subject = makeSubject()
        let log = TestLock()
        nonisolated(unsafe) var events: [String] = []
        let first = SubjectsClosureSubscriber<Int, TestError>(onValue: { value in
            log.withLock { events.append("first \(value)") }
            if value == 1 { subject.send(2) }
            return .none
        })
        let second = SubjectsClosureSubscriber<Int, TestError>(onValue: { value in
            log.withLock { events.append("second \(value)") }
            return .none
        })
        subject.subscribe(first)
        subject.subscribe(second)
        subject.send(1)
        #expect(events == expectedEvents, sourceLocation: sourceLocation)
        return subject
    }

    /// For each of 5 initial demands and each of 5 sequences of demands a subscriber returns from `receive(_:)`, how
    /// many values the subscriber receives: `feed` subscribes it to a new subject (it gets the initial demand too),
    /// sends the values and finishes. The subscriber must get the completion once; `expectedCounts` is the table
    /// Combine delivers, row by row of initial demand.
    static func demandTable(
        expectedCounts: [Int],
        sourceLocation: SourceLocation = #_sourceLocation,
        feed: (TestSubscriber<Int, TestError>, Subscribers.Demand) -> Void
    ) {
        let initialDemands: [Subscribers.Demand] = [.none, .max(1), .max(2), .max(10), .unlimited]
        let returnedDemands: [[Subscribers.Demand]] = [
            Array(repeating: .none, count: 5),
            Array(repeating: .max(1), count: 10),
            [.max(1), .none, .max(1), .none],
            [.none, .max(1), .max(2)],
            [.unlimited, .max(1)],
        ]
        var counts: [Int] = []
        for initial in initialDemands {
            for returned in returnedDemands {
                let index = TestLock()
                nonisolated(unsafe) var received = 0
                let subscriber = TestSubscriber<Int, TestError>(initialDemand: initial) { _ in
                    index.withLock {
                        defer { received += 1 }
                        return received < returned.count ? returned[received] : .none
                    }
                }
                feed(subscriber, initial)
                #expect(subscriber.completions.count == 1, sourceLocation: sourceLocation)
                counts.append(subscriber.values.count)
            }
        }
        #expect(counts == expectedCounts, sourceLocation: sourceLocation)
    }
}
