import Cadence
import Testing

/// Checks that operators over one upstream (`drop(while:)`, `prefix(while:)`, `output(in:)`, their `try` forms, …)
/// share about cancellation and subscriptions, each run against the operator a mirrored test file passes in.
///
/// Every check subscribes a fresh `TestSubscriber` to the operator applied to a fresh `DrivenPublisher<Int, TestError>`.
/// Events are compared as text (`"value(1)"`), so the same check serves operators that fail with `TestError` and the
/// `try` operators that fail with `any Error`. Failures point at the caller.
enum SingleUpstreamOperatorChecks {
    /// After the upstream's `1` went downstream, cancelling (twice) cancels the upstream once; whatever a
    /// misbehaving upstream sends afterwards — a value, then `lateCompletion` — is answered `.none` and goes nowhere,
    /// and a later request does not reach the upstream.
    ///
    /// The operator must pass the upstream's first value `1` straight through.
    static func cancelCancelsTheUpstreamOnceAndStopsDelivery<Operator: Publisher>(
        lateCompletion: Subscribers.Completion<TestError>,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeOperator: (DrivenPublisher<Int, TestError>) -> Operator
    ) where Operator.Output == Int {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, Operator.Failure>()
        makeOperator(publisher).subscribe(subscriber)

        publisher.send(1)
        subscriber.cancel()
        subscriber.cancel()
        let upstream = publisher.subscription
        #expect(upstream.cancelCount == 1, sourceLocation: sourceLocation)

        #expect(upstream.downstream.receive(2) == .none, sourceLocation: sourceLocation)
        upstream.downstream.receive(completion: lateCompletion)
        subscriber.request(.max(1))
        #expect(subscriber.events.map(\.description) == ["subscription", "value(1)"], sourceLocation: sourceLocation)
        #expect(upstream.requests == [.unlimited], sourceLocation: sourceLocation)
        #expect(upstream.cancelCount == 1, sourceLocation: sourceLocation)
    }

    /// Once cancelled, the operator's subscription lets go of the subscriber.
    static func cancelReleasesTheSubscriber<Operator: Publisher>(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeOperator: (DrivenPublisher<Int, TestError>) -> Operator
    ) {
        let publisher = DrivenPublisher<Int, TestError>()
        weak var released: TestSubscriber<Operator.Output, Operator.Failure>?
        do {
            let subscriber = TestSubscriber<Operator.Output, Operator.Failure>()
            released = subscriber
            makeOperator(publisher).subscribe(subscriber)
            subscriber.cancel()
        }
        #expect(released == nil, sourceLocation: sourceLocation)
    }

    /// As in Combine, a cancelled subscription keeps its subscriber until the upstream and the subscriber both let go
    /// of it; then the subscriber goes (see `expectTheSubscriberStaysUntilTheSubscriptionGoes`).
    static func cancelKeepsTheSubscriberUntilTheUpstreamLetsGo<Operator: Publisher>(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeOperator: (DrivenPublisher<Int, TestError>) -> Operator
    ) {
        expectTheSubscriberStaysUntilTheSubscriptionGoes(ending: .cancel, sourceLocation: sourceLocation, makeOperator)
    }

    /// Once cancelled, the operator's subscription lets go of the subscriber and of its closure, with all the
    /// closure captured.
    ///
    /// `makeOperator` gets an object to capture in the operator's closure (keep it alive there with
    /// `withExtendedLifetime`).
    static func cancelReleasesTheSubscriberAndTheClosure<Operator: Publisher>(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeOperator: (DrivenPublisher<Int, TestError>, AnyObject) -> Operator
    ) {
        let publisher = DrivenPublisher<Int, TestError>()
        weak var releasedSubscriber: TestSubscriber<Operator.Output, Operator.Failure>?
        weak var releasedCapture: CapturedByTheClosure?
        do {
            let subscriber = TestSubscriber<Operator.Output, Operator.Failure>()
            let capture = CapturedByTheClosure()
            releasedSubscriber = subscriber
            releasedCapture = capture
            makeOperator(publisher, capture).subscribe(subscriber)
            subscriber.cancel()
        }
        #expect(releasedSubscriber == nil, sourceLocation: sourceLocation)
        #expect(releasedCapture == nil, sourceLocation: sourceLocation)
    }

    /// A second subscription from the upstream is cancelled and the subscriber is not told about it.
    static func aSecondSubscriptionIsCancelled<Operator: Publisher>(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeOperator: (DrivenPublisher<Int, TestError>) -> Operator
    ) {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Operator.Output, Operator.Failure>()
        makeOperator(publisher).subscribe(subscriber)

        publisher.subscription.deliver()
        #expect(publisher.subscription.cancelCount == 1, sourceLocation: sourceLocation)
        #expect(subscriber.subscriptions == 1, sourceLocation: sourceLocation)
    }

    /// 50 times over: values from the upstream, 100 requests of `.max(1)` and a cancel race on three threads. Each
    /// time the upstream is cancelled once, and what arrived is consecutive values from `firstValue` on.
    ///
    /// `makeOperator` returns the operator and a check of its own to run on the subscriber after each race (the
    /// subscriber starts with `.max(1)`).
    static func concurrentValuesRequestsAndCancelDoNotRace<Operator: Publisher>(
        firstValue: Int = 0,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeOperator: (DrivenPublisher<Int, TestError>) -> (
            operator: Operator,
            afterwards: (TestSubscriber<Int, TestError>) -> Void
        )
    ) where Operator.Output == Int, Operator.Failure == TestError {
        for _ in 0..<50 {
            let publisher = DrivenPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
            let (operatorUnderTest, afterwards) = makeOperator(publisher)
            operatorUnderTest.subscribe(subscriber)
            slicingRace([
                { for value in 0..<100 { publisher.send(value) } },
                { for _ in 0..<100 { subscriber.request(.max(1)) } },
                { subscriber.cancel() },
            ])
            #expect(publisher.subscription.cancelCount == 1, sourceLocation: sourceLocation)
            let values = subscriber.values
            #expect(values == Array(firstValue..<(firstValue + values.count)), sourceLocation: sourceLocation)
            afterwards(subscriber)
        }
    }

    /// An operator that keeps no state hands the upstream's own subscription to the subscriber: requests and the
    /// demand the subscriber answers go straight to the upstream, and so does the cancel.
    static func demandAndCancellationGoStraightToTheUpstream<Operator: Publisher>(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeOperator: (DrivenPublisher<Int, TestError>) -> Operator
    ) where Operator.Output == Int {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, Operator.Failure>(initialDemand: .max(1), onValue: { _ in .max(2) })
        makeOperator(publisher).subscribe(subscriber)

        #expect(
            subscriber.subscription as? DrivenPublisher<Int, TestError>.TestSubscription === publisher.subscription,
            sourceLocation: sourceLocation)
        #expect(publisher.send(1) == .max(2), sourceLocation: sourceLocation)
        subscriber.request(.max(3))
        #expect(publisher.subscription.requests == [.max(1), .max(3)], sourceLocation: sourceLocation)
        subscriber.cancel()
        #expect(publisher.subscription.cancelCount == 1, sourceLocation: sourceLocation)
    }

    /// An object that only has an identity, for checking that an operator's closure is released.
    private final class CapturedByTheClosure {}
}
