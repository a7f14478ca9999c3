import CadenceSupport

extension Publisher {
    /// The elements produced by the publisher, as a throwing asynchronous sequence.
    ///
    /// Iterating it throws the publisher's failure, if it fails.
    public var values: AsyncThrowingPublisher<Self> {
        AsyncThrowingPublisher(self)
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
