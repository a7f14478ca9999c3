import Cadence

/// A subscriber for the flattening operators' stress tests: it records values, counts calls that overlapped another
/// call into it (there must be none), and answers each value with `demandPerValue` (by default one more when its
/// initial demand is limited, none when it is unlimited).
final class FlatteningCheckingSubscriber<Input>: Subscriber, @unchecked Sendable {
    typealias Failure = TestError

    // `lock` guards `recorded`, `recordedCompletions` and `subscription`; `active` and `overlapCount` have their own locks.
    private let lock = TestLock()
    private var recorded: [Input] = []
    private var recordedCompletions: [Subscribers.Completion<TestError>] = []
    private var subscription: (any Subscription)?
    private let active = LockedBox(0)
    private let overlapCount = LockedBox(0)
    private let initialDemand: Subscribers.Demand
    private let demandPerValue: Subscribers.Demand

    init(initialDemand: Subscribers.Demand, demandPerValue: Subscribers.Demand? = nil) {
        self.initialDemand = initialDemand
        self.demandPerValue = demandPerValue ?? (initialDemand == .unlimited ? .none : .max(1))
    }

    private func enter() {
        if active.mutate({
            $0 += 1
            return $0
        }) > 1 {
            overlapCount.mutate { $0 += 1 }
        }
    }

    private func leave() {
        active.mutate { $0 -= 1 }
    }

    func receive(subscription: any Subscription) {
        lock.withLock { self.subscription = subscription }
        subscription.request(initialDemand)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        enter()
        defer { leave() }
        lock.withLock { recorded.append(input) }
        return demandPerValue
    }

    func receive(completion: Subscribers.Completion<TestError>) {
        enter()
        defer { leave() }
        lock.withLock { recordedCompletions.append(completion) }
    }

    func request(_ demand: Subscribers.Demand) {
        let subscription = lock.withLock { self.subscription }
        subscription?.request(demand)
    }

    func cancel() {
        let subscription = lock.withLock { self.subscription }
        subscription?.cancel()
    }

    var values: [Input] { lock.withLock { recorded } }

    var completions: [Subscribers.Completion<TestError>] { lock.withLock { recordedCompletions } }

    /// How many calls into this subscriber started while another was still running.
    var overlaps: Int { overlapCount.value }
}

/// A publisher that fails at once, from inside `subscribe`, and counts how many times it was subscribed to: for
/// testing that `retry` loops instead of recursing.
final class FlatteningFailingPublisher: Publisher, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = TestError

    // `lock` guards `count`.
    private let lock = TestLock()
    private var count = 0

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
        lock.withLock { count += 1 }
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .failure(.oops))
    }

    var subscriptionCount: Int { lock.withLock { count } }
}

/// A connectable publisher for `autoconnect` tests: subscribers go to `publisher`, and it counts the calls to
/// `connect()` and the cancellations of the connections it returned.
final class FlatteningTestConnectable<Output, Failure: Error>: ConnectablePublisher, @unchecked Sendable {
    let publisher = DrivenPublisher<Output, Failure>()

    // `lock` guards the counters.
    private let lock = TestLock()
    private var connects = 0
    private var disconnects = 0

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        publisher.receive(subscriber: subscriber)
    }

    func connect() -> any Cancellable {
        lock.withLock { connects += 1 }
        return AnyCancellable { [self] in lock.withLock { disconnects += 1 } }
    }

    var connectCount: Int { lock.withLock { connects } }

    var disconnectCount: Int { lock.withLock { disconnects } }
}

/// Hands a value that is thread-safe but not `Sendable` (as in Combine: `Publishers.Autoconnect`) to concurrent test
/// code.
struct FlatteningThreadSafeBox<Value>: @unchecked Sendable { // the wrapped value guards its own state with a lock
    let value: Value
}
