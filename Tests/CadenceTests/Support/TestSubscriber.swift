import Cadence

/// An error for tests of failure paths.
enum TestError: Error, Equatable, CustomStringConvertible {
    case oops
    case other

    var description: String {
        switch self {
        case .oops: "oops"
        case .other: "other"
        }
    }
}

/// One thing a subscriber was told, in order.
enum Event<Input, Failure: Error> {
    case subscription
    case value(Input)
    case completion(Subscribers.Completion<Failure>)
}

extension Event: Equatable where Input: Equatable, Failure: Equatable {}

extension Event: CustomStringConvertible {
    var description: String {
        switch self {
        case .subscription: "subscription"
        case .value(let value): "value(\(value))"
        case .completion(.finished): "finished"
        case .completion(.failure(let error)): "failure(\(error))"
        }
    }
}

/// A subscriber that records every event and leaves demand to the test.
///
/// It requests `initialDemand` when subscribed (nothing when that is `.none`) and answers each value with what
/// `onValue` returns (default `.none`). Use `request(_:)` and `cancel()` to act on the subscription later. All of it is
/// guarded by a lock, so stress tests can read it from other threads.
final class TestSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    // `lock` guards every stored var below.
    private let lock = TestLock()
    private var recorded: [Event<Input, Failure>] = []
    private var storedSubscription: (any Subscription)?
    private var subscriptionCount = 0
    private let initialDemand: Subscribers.Demand
    private let onValue: (Input) -> Subscribers.Demand

    init(
        initialDemand: Subscribers.Demand = .unlimited,
        onValue: @escaping (Input) -> Subscribers.Demand = { _ in .none }
    ) {
        self.initialDemand = initialDemand
        self.onValue = onValue
    }

    func receive(subscription: any Subscription) {
        lock.withLock {
            recorded.append(.subscription)
            subscriptionCount += 1
            storedSubscription = subscription
        }
        if initialDemand > 0 {
            subscription.request(initialDemand)
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.withLock { recorded.append(.value(input)) }
        return onValue(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.withLock { recorded.append(.completion(completion)) }
    }

    /// Requests more values through the subscription this subscriber received.
    func request(_ demand: Subscribers.Demand) {
        let subscription = lock.withLock { storedSubscription }
        subscription?.request(demand)
    }

    /// Cancels the subscription this subscriber received.
    func cancel() {
        let subscription = lock.withLock { storedSubscription }
        subscription?.cancel()
    }

    /// Forgets the subscription (as a subscriber that finished with it would), so the test holds the only reference.
    func releaseSubscription() {
        lock.withLock { storedSubscription = nil }
    }

    var subscription: (any Subscription)? { lock.withLock { storedSubscription } }

    var events: [Event<Input, Failure>] { lock.withLock { recorded } }

    var values: [Input] {
        lock.withLock {
            recorded.compactMap { event in
                if case .value(let value) = event { return value }
                return nil
            }
        }
    }

    var completions: [Subscribers.Completion<Failure>] {
        lock.withLock {
            recorded.compactMap { event in
                if case .completion(let completion) = event { return completion }
                return nil
            }
        }
    }

    var subscriptions: Int { lock.withLock { subscriptionCount } }
}
