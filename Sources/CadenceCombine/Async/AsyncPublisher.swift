import CadenceSupport
extension Publisher where Failure == Never {
    /// The elements produced by the publisher, as an asynchronous sequence.
    ///
    /// ```swift
    /// for await value in subject.values {
    ///     print(value)
    /// }
    /// ```
    public var values: AsyncPublisher<Self> {
        AsyncPublisher(self)
    }
}

extension Publisher {
    /// The elements produced by the publisher, as a throwing asynchronous sequence.
    ///
    /// Iterating it throws the publisher's failure, if it fails.
    public var values: AsyncThrowingPublisher<Self> {
        AsyncThrowingPublisher(self)
    }
}

/// A publisher that exposes its elements as an asynchronous sequence.
///
/// Each iterator subscribes once, when it is made, and requests one element (`.max(1)`) per call of `next()`, so the
/// publisher never produces more than the loop consumes. `next()` returns `nil` once the publisher finishes. Cancelling
/// the task that awaits `next()` cancels the subscription and makes `next()` return `nil`; so does dropping the
/// iterator (leaving a `for await` loop early). A publisher that sends a value while no `next()` waits for one breaks
/// the demand it was given, and, as in Combine, stops the process.
public struct AsyncPublisher<P: Publisher>: AsyncSequence where P.Failure == Never {
    public typealias Element = P.Output

    public typealias AsyncIterator = Iterator

    private let publisher: P

    /// Creates a publisher that exposes elements received from an upstream publisher as an asynchronous sequence.
    public init(_ publisher: P) {
        self.publisher = publisher
    }

    /// Creates the asynchronous iterator that produces elements of this asynchronous sequence; it subscribes to the
    /// publisher.
    public func makeAsyncIterator() -> Iterator {
        Iterator(subscribingTo: publisher)
    }

    /// The iterator that produces elements of the asynchronous publisher sequence.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Element = P.Output

        private let inner: AsyncPublisherInner<P.Output, Never>
        private let lifetime: AsyncPublisherLifetime<P.Output, Never>

        fileprivate init(subscribingTo publisher: P) {
            inner = AsyncPublisherInner(name: "AsyncPublisher")
            lifetime = AsyncPublisherLifetime(inner)
            publisher.subscribe(inner)
        }

        /// Produces the next element in the sequence, or `nil` once the publisher finished or the task was cancelled.
        public mutating func next() async -> P.Output? {
            let inner = self.inner
            // The inner subscriber throws only the publisher's failure, and this publisher never fails.
            return try? await withTaskCancellationHandler {
                try await inner.next()
            } onCancel: {
                inner.cancel()
            }
        }
    }
}

/// A publisher that exposes its elements as a throwing asynchronous sequence.
///
/// Each iterator subscribes once, when it is made, and requests one element (`.max(1)`) per call of `next()`.
/// `next()` returns `nil` once the publisher finishes, and throws its failure if it fails (then returns `nil`).
/// Cancelling the task that awaits `next()` cancels the subscription and makes `next()` return `nil`; so does dropping
/// the iterator. A publisher that sends a value while no `next()` waits for one stops the process, as in Combine.
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
    public typealias Element = P.Output

    public typealias AsyncIterator = Iterator

    private let publisher: P

    /// Creates a publisher that exposes elements received from an upstream publisher as a throwing asynchronous
    /// sequence.
    public init(_ publisher: P) {
        self.publisher = publisher
    }

    /// Creates the asynchronous iterator that produces elements of this asynchronous sequence; it subscribes to the
    /// publisher.
    public func makeAsyncIterator() -> Iterator {
        Iterator(subscribingTo: publisher)
    }

    /// The iterator that produces elements of the asynchronous publisher sequence.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Element = P.Output

        private let inner: AsyncPublisherInner<P.Output, P.Failure>
        private let lifetime: AsyncPublisherLifetime<P.Output, P.Failure>

        fileprivate init(subscribingTo publisher: P) {
            inner = AsyncPublisherInner(name: "AsyncThrowingPublisher")
            lifetime = AsyncPublisherLifetime(inner)
            publisher.subscribe(inner)
        }

        /// Produces the next element in the sequence, `nil` once the publisher finished or the task was cancelled,
        /// or throws the publisher's failure.
        public mutating func next() async throws -> P.Output? {
            let inner = self.inner
            return try await withTaskCancellationHandler {
                try await inner.next()
            } onCancel: {
                inner.cancel()
            }
        }
    }
}

/// Cancels the subscription when the last copy of an iterator goes away.
private final class AsyncPublisherLifetime<Input, Failure: Error> {
    private let inner: AsyncPublisherInner<Input, Failure>

    init(_ inner: AsyncPublisherInner<Input, Failure>) {
        self.inner = inner
    }

    deinit {
        inner.cancel()
    }
}

/// The subscriber behind an iterator: it turns each `next()` into a `.max(1)` request and resumes each waiting call
/// exactly once, with a value, `nil` (finished or cancelled) or the failure.
///
/// As in Combine, several calls of `next()` may wait at once (from copies of one iterator, or from tasks sharing it
/// through an actor): each asks for one more value, and the values go to them in the order they called. Cancelling
/// any of them ends the iteration for all. Every resumption happens after the continuations were taken out of the
/// lock, so none happens twice and none under the lock.
private final class AsyncPublisherInner<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
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
