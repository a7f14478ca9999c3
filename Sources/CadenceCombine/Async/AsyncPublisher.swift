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
