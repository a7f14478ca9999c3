import Cadence

/// A subscriber that records every event with the virtual tick it arrived at, as text — `"subscription@0"`, `"1@5"`,
/// `"finished@7"`, `"failure(oops)@7"` — so a test of a time-based operator reads as a timeline.
///
/// Demand works as in ``TestSubscriber``: `initialDemand` when subscribed, `onValue`'s answer for each value, and
/// `request(_:)`/`cancel()` later. Guarded by a lock, so stress tests can read it from other threads.
final class TickRecordingSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    // `lock` guards every stored var below.
    private let lock = TestLock()
    private var recorded: [String] = []
    private var valuesStorage: [Input] = []
    private var completionCount = 0
    private var storedSubscription: (any Subscription)?
    private let clock: VirtualClock
    private let initialDemand: Subscribers.Demand
    private let onValue: (Input) -> Subscribers.Demand

    init(
        clock: VirtualClock,
        initialDemand: Subscribers.Demand = .unlimited,
        onValue: @escaping (Input) -> Subscribers.Demand = { _ in .none }
    ) {
        self.clock = clock
        self.initialDemand = initialDemand
        self.onValue = onValue
    }

    func receive(subscription: any Subscription) {
        let tick = clock.now.ticks
        lock.withLock {
            recorded.append("subscription@\(tick)")
            storedSubscription = subscription
        }
        if initialDemand > 0 {
            subscription.request(initialDemand)
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        let tick = clock.now.ticks
        lock.withLock {
            recorded.append("\(input)@\(tick)")
            valuesStorage.append(input)
        }
        return onValue(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let tick = clock.now.ticks
        lock.withLock {
            completionCount += 1
            switch completion {
            case .finished: recorded.append("finished@\(tick)")
            case .failure(let error): recorded.append("failure(\(error))@\(tick)")
            }
        }
    }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { storedSubscription }?.request(demand)
    }

    func cancel() {
        lock.withLock { storedSubscription }?.cancel()
    }

    /// Every event so far, oldest first, each with its tick.
    var timeline: [String] { lock.withLock { recorded } }

    var values: [Input] { lock.withLock { valuesStorage } }

    var completions: Int { lock.withLock { completionCount } }

    var subscription: (any Subscription)? { lock.withLock { storedSubscription } }
}
