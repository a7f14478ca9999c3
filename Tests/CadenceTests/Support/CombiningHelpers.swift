import Cadence
import Foundation

/// A subscriber for the combining operators' stress tests: it records what it gets, counts every time two of its
/// methods ran at the same time, and every value that arrived beyond the demand it had granted.
///
/// It grants `initialDemand` when subscribed and `demandPerValue` from each `receive(_:)`.
final class CombiningProbeSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    // `lock` guards every stored var below; `inside` has its own lock.
    private let lock = TestLock()
    private var recorded: [Input] = []
    private var recordedCompletions: [Subscribers.Completion<Failure>] = []
    private var granted = Subscribers.Demand.none
    private var overlapCount = 0
    private var excessCount = 0
    private var storedSubscription: (any Subscription)?
    private let inside = LockedBox(0)
    private let initialDemand: Subscribers.Demand
    private let demandPerValue: Subscribers.Demand

    init(initialDemand: Subscribers.Demand, demandPerValue: Subscribers.Demand) {
        self.initialDemand = initialDemand
        self.demandPerValue = demandPerValue
    }

    private func enter() {
        if inside.mutate({
            $0 += 1
            return $0
        }) != 1 {
            lock.withLock { overlapCount += 1 }
        }
    }

    private func leave() {
        inside.mutate { $0 -= 1 }
    }

    func receive(subscription: any Subscription) {
        lock.withLock {
            storedSubscription = subscription
            granted += initialDemand
        }
        if initialDemand > 0 {
            subscription.request(initialDemand)
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        enter()
        lock.withLock {
            recorded.append(input)
            if granted == .none {
                excessCount += 1
            } else {
                granted -= 1
            }
            granted += demandPerValue
        }
        leave()
        return demandPerValue
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        enter()
        lock.withLock { recordedCompletions.append(completion) }
        leave()
    }

    /// Grants more demand through the subscription, from any thread.
    func request(_ demand: Subscribers.Demand) {
        let subscription = lock.withLock {
            granted += demand
            return storedSubscription
        }
        subscription?.request(demand)
    }

    /// Cancels the subscription, from any thread, and returns how many values had arrived when it returned.
    @discardableResult
    func cancel() -> Int {
        let subscription = lock.withLock { storedSubscription }
        subscription?.cancel()
        return lock.withLock { recorded.count }
    }

    var values: [Input] { lock.withLock { recorded } }
    var completions: [Subscribers.Completion<Failure>] { lock.withLock { recordedCompletions } }
    /// How many times a call arrived while another was still running.
    var overlaps: Int { lock.withLock { overlapCount } }
    /// How many values arrived with no demand granted.
    var excess: Int { lock.withLock { excessCount } }
}

/// A well-behaved upstream for stress tests: `run(_:)` sends its values from the calling thread, each only when the
/// subscriber has demand for it, and stops when cancelled or when `deadline` passes.
final class CombiningStressPublisher<Output: Sendable, Failure: Error>: Publisher, @unchecked Sendable {
    // `lock` guards every stored var below.
    private let lock = TestLock()
    private var downstream: AnySubscriber<Output, Failure>?
    private var demand = Subscribers.Demand.none
    private var cancelled = false

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        lock.withLock { downstream = AnySubscriber(subscriber) }
        subscriber.receive(subscription: Connection(owner: self))
    }

    /// Sends `values` one at a time as demand allows, then finishes; returns how many values went out.
    @discardableResult
    func run(_ values: [Output], finish: Bool = true, deadline: Date = Date(timeIntervalSinceNow: 20)) -> Int {
        var sent = 0
        while sent < values.count, Date() < deadline {
            let target: AnySubscriber<Output, Failure>? = lock.withLock {
                guard !cancelled, demand > 0, let downstream else { return nil }
                demand -= 1
                return downstream
            }
            guard let target else {
                if lock.withLock({ cancelled }) { return sent }
                sched_yield()
                continue
            }
            let more = target.receive(values[sent])
            sent += 1
            lock.withLock { demand += more }
        }
        let target = lock.withLock { cancelled ? nil : downstream }
        if finish {
            target?.receive(completion: .finished)
        }
        return sent
    }

    var isCancelled: Bool { lock.withLock { cancelled } }

    private final class Connection: Subscription, @unchecked Sendable { // immutable; the owner's lock guards state
        let owner: CombiningStressPublisher

        init(owner: CombiningStressPublisher) {
            self.owner = owner
        }

        func request(_ demand: Subscribers.Demand) {
            owner.lock.withLock { owner.demand += demand }
        }

        func cancel() {
            owner.lock.withLock { owner.cancelled = true }
        }
    }
}

/// Runs each body on its own thread and waits for all of them.
func combiningRunConcurrently(_ bodies: [@Sendable () -> Void]) {
    let group = DispatchGroup()
    for body in bodies {
        group.enter()
        let thread = Thread {
            body()
            group.leave()
        }
        thread.start()
    }
    group.wait()
}

/// A publisher that, like `Empty`, hands each subscriber a subscription and finishes at once, before returning from
/// `subscribe(_:)`; it counts the requests and cancellations it gets.
final class CombiningImmediatelyFinishingPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    let subscription = DrivenPublisher<Output, Failure>.TestSubscription(AnySubscriber<Output, Failure>())

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: subscription)
        subscriber.receive(completion: .finished)
    }
}

/// Runs `upstreams` on their own threads with far more values than they can send in the time, cancels `subscriber`
/// from another thread after a moment, and returns how many values had arrived when `cancel()` returned.
func combiningCancelWhileRunning<Input, Failure: Error>(
    _ upstreams: [CombiningStressPublisher<Int, Failure>],
    _ subscriber: CombiningProbeSubscriber<Input, Failure>
) -> Int {
    let countAtCancel = LockedBox(-1)
    let deadline = Date(timeIntervalSinceNow: 5)
    combiningRunConcurrently(
        upstreams.map { upstream in { upstream.run(Array(0..<1_000_000), deadline: deadline) } } + [
            {
                usleep(2_000)
                let count = subscriber.cancel()
                countAtCancel.mutate { $0 = count }
            }
        ])
    return countAtCancel.value
}
