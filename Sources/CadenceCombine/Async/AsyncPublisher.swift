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
/// iterator (leaving a `for await` loop early).
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
/// the iterator.
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

/// The subscriber behind an iterator: it turns each `next()` into a `.max(1)` request and resumes the waiting task
/// exactly once, with the value, `nil` (finished or cancelled) or the failure.
///
/// Every resumption happens after the continuation was taken out of the lock, so none happens twice and none under
/// the lock.
private final class AsyncPublisherInner<Input, Failure: Error>: Subscriber, CustomStringConvertible,
    @unchecked Sendable // `lock` guards every stored var
{
    private enum State {
        case awaitingSubscription(requested: Bool)
        case subscribed(any Subscription)
        case terminal
    }

    private let lock = UnfairLock()
    private var state = State.awaitingSubscription(requested: false)
    private var waiting: CheckedContinuation<Input?, any Error>?
    /// Values a misbehaving upstream sent without a request; handed out before asking for more.
    private var unrequested: [Input] = []
    /// A failure that arrived while nobody was waiting; thrown by the next `next()`.
    private var pendingFailure: Failure?

    let description: String

    init(name: String) {
        description = name
    }

    func next() async throws -> Input? {
        try await withCheckedThrowingContinuation { continuation in
            lock.lock()
            require(
                waiting == nil, "\(description).Iterator: next() was called while another call to next() is waiting")
            if !unrequested.isEmpty {
                nonisolated(unsafe) let value: Input? = unrequested.removeFirst()
                lock.unlock()
                continuation.resume(returning: value)
                return
            }
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
                waiting = continuation
                state = .awaitingSubscription(requested: true)
                lock.unlock()
            case .subscribed(let subscription):
                waiting = continuation
                lock.unlock()
                subscription.request(.max(1))
            }
        }
    }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription(let requested) = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .subscribed(subscription)
        lock.unlock()
        if requested {
            subscription.request(.max(1))
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        if case .terminal = state {
            lock.unlock()
            return .none
        }
        guard let continuation = waiting else {
            unrequested.append(input)
            lock.unlock()
            return .none
        }
        waiting = nil
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
        let continuation = waiting
        waiting = nil
        var failure: Failure?
        if case .failure(let error) = completion {
            if continuation == nil {
                pendingFailure = error
            } else {
                failure = error
            }
        }
        lock.unlock()
        if let failure {
            continuation?.resume(throwing: failure)
        } else {
            continuation?.resume(returning: nil)
        }
    }

    /// Ends the iteration: cancels the subscription and resumes a waiting `next()` with `nil`.
    func cancel() {
        lock.lock()
        let previous = state
        state = .terminal
        let continuation = waiting
        waiting = nil
        unrequested = []
        pendingFailure = nil
        lock.unlock()
        if case .subscribed(let subscription) = previous {
            subscription.cancel()
        }
        continuation?.resume(returning: nil)
    }
}

