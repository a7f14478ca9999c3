import Cadence
import Testing

/// Subscribes a `TestSubscriber` to an operator applied to a fresh `DrivenPublisher`, and returns both ends.
///
/// - Parameters:
///   - initialDemand: What the subscriber requests when it gets its subscription.
///   - onValue: What the subscriber answers to each value.
///   - makeOperator: Applies the operator under test to the upstream.
func makeTransformPipeline<Input, UpstreamFailure: Error, Operator: Publisher>(
    _ input: Input.Type,
    _ failure: UpstreamFailure.Type,
    initialDemand: Subscribers.Demand = .unlimited,
    onValue: @escaping (Operator.Output) -> Subscribers.Demand = { _ in .none },
    _ makeOperator: (DrivenPublisher<Input, UpstreamFailure>) -> Operator
) -> (upstream: DrivenPublisher<Input, UpstreamFailure>, subscriber: TestSubscriber<Operator.Output, Operator.Failure>)
{
    let upstream = DrivenPublisher<Input, UpstreamFailure>()
    let subscriber = TestSubscriber<Operator.Output, Operator.Failure>(initialDemand: initialDemand, onValue: onValue)
    makeOperator(upstream).subscribe(subscriber)
    return (upstream, subscriber)
}

extension TestSubscriber {
    /// Every event as text (`"value(1)"`, `"failure(oops)"`), for outputs or failures that are not `Equatable`
    /// (tuples, `any Error`).
    var transformEventLog: [String] { events.map(\.description) }
}

extension TestError {
    /// The test error a completion failed with, or nil when it finished or failed with another error.
    init?(failureOf completion: Subscribers.Completion<any Error>) {
        guard case .failure(let error) = completion, let testError = error as? TestError else { return nil }
        self = testError
    }
}

/// A value with a few properties, for the key-path forms of `map`.
struct TransformPoint: Equatable {
    var x: Int
    var y: Int
    var label: String
}

extension TestSubscriber {
    /// The mirror of the subscription this subscriber received, when it has one.
    var transformSubscriptionMirror: Mirror? {
        subscription.flatMap { ($0 as? any CustomReflectable)?.customMirror }
    }
}

/// As in Combine, a cancelled subscription of the transforming and slicing operators keeps its subscriber and the
/// operator's closure (with all it captured) until the upstream lets go of the subscription; then both go.
///
/// `makeOperator` gets an object to capture in the operator's closure (keep it alive there with
/// `withExtendedLifetime`).
func expectCancelKeepsTheSubscriberUntilTheUpstreamLetsGo<Operator: Publisher>(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ makeOperator: (DrivenPublisher<Int, TestError>, AnyObject) -> Operator
) {
    var publisher: DrivenPublisher<Int, TestError>? = DrivenPublisher<Int, TestError>()
    weak var releasedSubscriber: TestSubscriber<Operator.Output, Operator.Failure>?
    weak var releasedCapture: CapturedByTransformClosure?
    do {
        let subscriber = TestSubscriber<Operator.Output, Operator.Failure>()
        let capture = CapturedByTransformClosure()
        releasedSubscriber = subscriber
        releasedCapture = capture
        if let publisher { makeOperator(publisher, capture).subscribe(subscriber) }
        subscriber.cancel()
        subscriber.releaseSubscription()
    }
    #expect(publisher?.subscription.cancelCount == 1, sourceLocation: sourceLocation)
    #expect(releasedSubscriber != nil, sourceLocation: sourceLocation)
    #expect(releasedCapture != nil, sourceLocation: sourceLocation)
    publisher = nil
    #expect(releasedSubscriber == nil, sourceLocation: sourceLocation)
    #expect(releasedCapture == nil, sourceLocation: sourceLocation)
}

/// What an operator's closure captures in `expectCancelKeepsTheSubscriberUntilTheUpstreamLetsGo`.
final class CapturedByTransformClosure {}

/// Cancels the operator's subscription before the upstream sent it one, then sends one: how often that one was
/// cancelled, and how many subscriptions the downstream got.
func cancelBeforeTheSubscription<Operator: Publisher>(
    _ makeOperator: (RawSubscriberPublisher<Int, TestError>) -> Operator
) throws -> (upstreamCancels: Int, downstreamSubscriptions: Int) {
    let upstream = RawSubscriberPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Operator.Output, Operator.Failure>()
    makeOperator(upstream).subscribe(subscriber)
    try #require(upstream.subscriber as? any Subscription).cancel()
    let subscription = DrivenPublisher<Int, TestError>.TestSubscription(AnySubscriber<Int, TestError>())
    upstream.subscriber?.receive(subscription: subscription)
    return (subscription.cancelCount, subscriber.subscriptions)
}

/// A publisher that keeps the subscriber it is given as is, not type-erased, and sends it nothing by itself: a test
/// reaches the operator's own subscriber (which is also the subscription it hands downstream) through it.
final class RawSubscriberPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable { // used on one thread only
    private(set) var subscriber: (any Subscriber)?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        self.subscriber = subscriber
    }
}
