import Cadence
import Testing

/// An operator under test wired between a `DrivenPublisher<Int, TestError>` and a `TestSubscriber`.
///
/// Events are compared as text (`"value(3)"`, `"finished"`, `"failure(oops)"`), so the same checks serve operators
/// that fail with `TestError` and the `try` operators that fail with `any Error`.
struct ReducingHarness<Operator: Publisher> {
    let upstream = DrivenPublisher<Int, TestError>()
    let subscriber: TestSubscriber<Operator.Output, Operator.Failure>

    init(initialDemand: Subscribers.Demand, _ makeOperator: (DrivenPublisher<Int, TestError>) -> Operator) {
        subscriber = TestSubscriber(initialDemand: initialDemand)
        makeOperator(upstream).subscribe(subscriber)
    }

    /// What the downstream received, as text.
    var events: [String] { subscriber.events.map(\.description) }

    /// What the operator requested from the upstream.
    var requests: [Subscribers.Demand] { upstream.subscription.requests }

    /// How many times the operator cancelled the upstream.
    var cancelCount: Int { upstream.subscription.cancelCount }

    /// Sends each value, checking that the operator answers `.none` to each, as the reducing operators do.
    func send(_ values: [Int], sourceLocation: SourceLocation = #_sourceLocation) {
        for value in values {
            #expect(upstream.send(value) == .none, sourceLocation: sourceLocation)
        }
    }

    /// Sends a value straight to the operator, even after it cancelled (`DrivenPublisher.send` skips those).
    @discardableResult
    func force(_ value: Int) -> Subscribers.Demand {
        upstream.subscription.downstream.receive(value)
    }

    /// Sends a completion straight to the operator, even after it cancelled.
    func force(completion: Subscribers.Completion<TestError>) {
        upstream.subscription.downstream.receive(completion: completion)
    }
}

/// The behaviour every reducing operator (reduce, collect(), count, min/max, contains, allSatisfy, first, last and
/// their `try` forms) shares with Combine's: it hands its subscription downstream, requests `.unlimited`, delivers
/// one value only after the downstream's first request, forwards an upstream failure at once, and stops on cancel.
enum ReducingChecks {
    /// Runs every shared check.
    ///
    /// - Parameters:
    ///   - name: the subscription's expected `description`.
    ///   - inputs: values to send before finishing.
    ///   - result: the value expected for `inputs`, as text, or nil when the operator finishes without one.
    ///   - emptyResult: the value expected when the upstream finishes at once, as text, or nil.
    static func all<Operator: Publisher>(
        name: String,
        inputs: [Int],
        result: String?,
        emptyResult: String?,
        mirrorLabels: [String] = ["downstream", "result", "initial", "status"],
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeOperator: (DrivenPublisher<Int, TestError>) -> Operator
    ) {
        subscribesAndRequestsUnlimited(name: name, sourceLocation: sourceLocation, makeOperator)
        holdsResultUntilRequested(inputs: inputs, result: result, sourceLocation: sourceLocation, makeOperator)
        deliversAtOnceWhenRequested(inputs: inputs, result: result, sourceLocation: sourceLocation, makeOperator)
        finishesEmpty(result: emptyResult, sourceLocation: sourceLocation, makeOperator)
        forwardsUpstreamFailureAtOnce(sourceLocation: sourceLocation, makeOperator)
        cancelStopsEverything(sourceLocation: sourceLocation, makeOperator)
        cancelsSecondSubscription(sourceLocation: sourceLocation, makeOperator)
        describesItself(name: name, mirrorLabels: mirrorLabels, sourceLocation: sourceLocation, makeOperator)
    }

    /// The downstream gets the subscription first; then the upstream gets one request for `.unlimited`.
    static func subscribesAndRequestsUnlimited<Operator: Publisher>(
        name: String,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeOperator: (DrivenPublisher<Int, TestError>) -> Operator
    ) {
        let upstream = DrivenPublisher<Int, TestError>()
        let requestsSeenBySubscriber = ReducingProbe()
        let subscriber = AnySubscriber<Operator.Output, Operator.Failure>(
            receiveSubscription: { subscription in
                requestsSeenBySubscriber.record(upstream.subscription.requests)
                requestsSeenBySubscriber.record(description: "\(subscription)")
            })
        makeOperator(upstream).subscribe(subscriber)
        #expect(requestsSeenBySubscriber.requests == [[]], sourceLocation: sourceLocation)
        #expect(requestsSeenBySubscriber.descriptions == [name], sourceLocation: sourceLocation)
        #expect(upstream.subscription.requests == [.unlimited], sourceLocation: sourceLocation)
    }

    /// With no demand, nothing arrives until the first request, which gets the result and `finished`; later
    /// requests change nothing and never reach the upstream.
    static func holdsResultUntilRequested<Operator: Publisher>(
        inputs: [Int],
        result: String?,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeOperator: (DrivenPublisher<Int, TestError>) -> Operator
    ) {
        let harness = ReducingHarness(initialDemand: .none, makeOperator)
        harness.send(inputs, sourceLocation: sourceLocation)
        harness.upstream.send(completion: .finished)
        #expect(harness.events == ["subscription"], sourceLocation: sourceLocation)
        harness.subscriber.request(.max(1))
        let expected = ["subscription"] + (result.map { ["value(\($0))"] } ?? []) + ["finished"]
        #expect(harness.events == expected, sourceLocation: sourceLocation)
        harness.subscriber.request(.max(1))
        harness.subscriber.request(.unlimited)
        #expect(harness.events == expected, sourceLocation: sourceLocation)
        #expect(harness.requests == [.unlimited], sourceLocation: sourceLocation)
    }

    /// A downstream that already requested gets the result as soon as it is known.
    static func deliversAtOnceWhenRequested<Operator: Publisher>(
        inputs: [Int],
        result: String?,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeOperator: (DrivenPublisher<Int, TestError>) -> Operator
    ) {
        let harness = ReducingHarness(initialDemand: .max(1), makeOperator)
        harness.send(inputs, sourceLocation: sourceLocation)
        harness.upstream.send(completion: .finished)
        let expected = ["subscription"] + (result.map { ["value(\($0))"] } ?? []) + ["finished"]
        #expect(harness.events == expected, sourceLocation: sourceLocation)
        harness.force(7)
        harness.force(completion: .finished)
        #expect(harness.events == expected, sourceLocation: sourceLocation)
    }

    /// An upstream that finishes at once gives the operator's empty answer.
    static func finishesEmpty<Operator: Publisher>(
        result: String?,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeOperator: (DrivenPublisher<Int, TestError>) -> Operator
    ) {
        let harness = ReducingHarness(initialDemand: .max(1), makeOperator)
        harness.upstream.send(completion: .finished)
        let expected = ["subscription"] + (result.map { ["value(\($0))"] } ?? []) + ["finished"]
        #expect(harness.events == expected, sourceLocation: sourceLocation)
        #expect(harness.cancelCount == 0, sourceLocation: sourceLocation)
    }

    /// An upstream failure goes downstream at once, demand or not, without cancelling the upstream; nothing
    /// follows it.
    static func forwardsUpstreamFailureAtOnce<Operator: Publisher>(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeOperator: (DrivenPublisher<Int, TestError>) -> Operator
    ) {
        let harness = ReducingHarness(initialDemand: .none, makeOperator)
        harness.upstream.send(completion: .failure(.oops))
        #expect(harness.events == ["subscription", "failure(oops)"], sourceLocation: sourceLocation)
        harness.subscriber.request(.max(1))
        harness.force(1)
        harness.force(completion: .failure(.other))
        harness.force(completion: .finished)
        #expect(harness.events == ["subscription", "failure(oops)"], sourceLocation: sourceLocation)
        #expect(harness.cancelCount == 0, sourceLocation: sourceLocation)
    }

    /// Cancelling cancels the upstream once; nothing is delivered afterwards, whatever the upstream sends.
    static func cancelStopsEverything<Operator: Publisher>(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeOperator: (DrivenPublisher<Int, TestError>) -> Operator
    ) {
        let harness = ReducingHarness(initialDemand: .unlimited, makeOperator)
        harness.subscriber.cancel()
        #expect(harness.cancelCount == 1, sourceLocation: sourceLocation)
        #expect(harness.force(0) == .none, sourceLocation: sourceLocation)
        harness.force(completion: .finished)
        harness.force(completion: .failure(.oops))
        harness.subscriber.request(.max(1))
        harness.subscriber.cancel()
        #expect(harness.events == ["subscription"], sourceLocation: sourceLocation)
        #expect(harness.cancelCount == 1, sourceLocation: sourceLocation)
        #expect(harness.requests == [.unlimited], sourceLocation: sourceLocation)
    }

    /// A second upstream subscription is cancelled and leaves the first one alone.
    static func cancelsSecondSubscription<Operator: Publisher>(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeOperator: (DrivenPublisher<Int, TestError>) -> Operator
    ) {
        let harness = ReducingHarness(initialDemand: .none, makeOperator)
        let other = DrivenPublisher<Int, TestError>()
        other.subscribe(TestSubscriber<Int, TestError>(initialDemand: .none))
        harness.upstream.subscription.downstream.receive(subscription: other.subscription)
        #expect(other.subscription.cancelCount == 1, sourceLocation: sourceLocation)
        #expect(other.subscription.requests == [], sourceLocation: sourceLocation)
        #expect(harness.cancelCount == 0, sourceLocation: sourceLocation)
        #expect(harness.events == ["subscription"], sourceLocation: sourceLocation)
    }

    /// `description` and `playgroundDescription` are Combine's name; the mirror's children are Combine's: by default
    /// the reducing operators' `downstream`, `result`, `initial` and `status`.
    static func describesItself<Operator: Publisher>(
        name: String,
        mirrorLabels: [String] = ["downstream", "result", "initial", "status"],
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeOperator: (DrivenPublisher<Int, TestError>) -> Operator
    ) {
        let harness = ReducingHarness(initialDemand: .none, makeOperator)
        guard let subscription = harness.subscriber.subscription else {
            Issue.record("the subscriber got no subscription", sourceLocation: sourceLocation)
            return
        }
        #expect("\(subscription)" == name, sourceLocation: sourceLocation)
        let playground = (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription
        #expect(playground as? String == name, sourceLocation: sourceLocation)
        let labels = Mirror(reflecting: subscription).children.map(\.label)
        #expect(labels == mirrorLabels, sourceLocation: sourceLocation)
    }
}

/// Records what a subscriber saw while it was being subscribed.
final class ReducingProbe: @unchecked Sendable { // `lock` guards both arrays
    private let lock = TestLock()
    private var requestsStorage: [[Subscribers.Demand]] = []
    private var descriptionsStorage: [String] = []

    func record(_ requests: [Subscribers.Demand]) {
        lock.withLock { requestsStorage.append(requests) }
    }

    func record(description: String) {
        lock.withLock { descriptionsStorage.append(description) }
    }

    var requests: [[Subscribers.Demand]] { lock.withLock { requestsStorage } }

    var descriptions: [String] { lock.withLock { descriptionsStorage } }
}

/// A thread-safe counter, for counting calls to an operator's closure.
final class ReducingCounter: @unchecked Sendable { // `lock` guards `count`
    private let lock = TestLock()
    private var count = 0

    func increment() {
        lock.withLock { count += 1 }
    }

    var value: Int { lock.withLock { count } }
}
