import CadenceSupport

/// The subscriber behind an iterator: it turns each `next()` into a `.max(1)` request and resumes each waiting call
/// exactly once, with a value, `nil` (finished or cancelled) or the failure.
///
/// As in Combine, several calls of `next()` may wait at once (from copies of one iterator, or from tasks sharing it
/// through an actor): each asks for one more value, and the values go to them in the order they called. Cancelling
/// any of them ends the iteration for all. Every resumption happens after the continuations were taken out of the
/// lock, so none happens twice and none under the lock.
final class AsyncPublisherInner<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
    @unchecked Sendable // `lock` guards every stored var
{
    private enum State {
        case awaitingSubscription
        case subscribed(any Subscription)
        case terminal
    }

    private let lock = UnfairLock()
    private var state = State.awaitingSubscription
    /// The calls of `next()` waiting for a value, oldest first.
    private var waiting: [CheckedContinuation<Input?, any Error>] = []
    /// The values asked for before the subscription arrived; requested at once when it does.
    private var demandBeforeSubscription = Subscribers.Demand.none
    /// A failure that arrived while nobody was waiting; thrown by the next `next()`.
    private var pendingFailure: Failure?

    let description: String

    init(name: String) {
        description = name
    }

    func next() async throws -> Input? {
        try await withCheckedThrowingContinuation { continuation in
            lock.lock()
            switch state {
            case .terminal:
                let failure = pendingFailure
                pendingFailure = nil
                lock.unlock()
                if let failure {
                    continuation.resume(throwing: failure)
                } else {
                    continuation.resume(returning: nil)
                }
            case .awaitingSubscription:
                waiting.append(continuation)
                demandBeforeSubscription += 1
                lock.unlock()
            case .subscribed(let subscription):
                waiting.append(continuation)
                lock.unlock()
                subscription.request(.max(1))
            }
        }
    }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .subscribed(subscription)
        let demand = demandBeforeSubscription
        demandBeforeSubscription = .none
        lock.unlock()
        if demand > .none {
            subscription.request(demand)
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed = state else {
            // As in Combine, a value before the subscription (or after the end) resumes every waiting call with
            // `nil`; the demand they asked for stays, for the subscription to come.
            let resumed = waiting
            waiting = []
            lock.unlock()
            for continuation in resumed {
                continuation.resume(returning: nil)
            }
            return .none
        }
        let wasRequested = !waiting.isEmpty
        guard wasRequested else {
            lock.unlock()
            _ = combineRule(
                false,
                "\(description): received a value it did not request; a publisher must not send more values than "
                    + "its subscriber requested")
            return .none
        }
        let continuation = waiting.removeFirst()
        lock.unlock()
        // The publisher hands the value over to the waiting task and keeps no use of it.
        nonisolated(unsafe) let value: Input? = input
        continuation.resume(returning: value)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        if case .terminal = state {
            lock.unlock()
            return
        }
        state = .terminal
        var resumed = waiting
        waiting = []
        // The oldest waiting call gets the failure; the others, and every later call, get `nil`. With nobody
        // waiting, the next call throws it.
        var failure: Failure?
        if case .failure(let error) = completion {
            if resumed.isEmpty {
                pendingFailure = error
            } else {
                failure = error
            }
        }
        lock.unlock()
        if let failure {
            resumed.removeFirst().resume(throwing: failure)
        }
        for continuation in resumed {
            continuation.resume(returning: nil)
        }
    }

    /// Ends the iteration: cancels the subscription and resumes every waiting `next()` with `nil`.
    func cancel() {
        lock.lock()
        let previous = state
        state = .terminal
        let resumed = waiting
        waiting = []
        pendingFailure = nil
        lock.unlock()
        if case .subscribed(let subscription) = previous {
            subscription.cancel()
        }
        for continuation in resumed {
            continuation.resume(returning: nil)
        }
    }
}
