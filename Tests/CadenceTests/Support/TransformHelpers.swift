import Cadence

/// Subscribes a `TestSubscriber` to an operator applied to a fresh `TestPublisher`, and returns both ends.
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
    _ makeOperator: (TestPublisher<Input, UpstreamFailure>) -> Operator
) -> (upstream: TestPublisher<Input, UpstreamFailure>, subscriber: TestSubscriber<Operator.Output, Operator.Failure>) {
    let upstream = TestPublisher<Input, UpstreamFailure>()
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
