import CadenceSupport

/// Cancels the subscription when the last copy of an iterator goes away.
final class AsyncPublisherLifetime<Input, Failure: Error> {
    private let inner: AsyncPublisherInner<Input, Failure>

    init(_ inner: AsyncPublisherInner<Input, Failure>) {
        self.inner = inner
    }

    deinit {
        inner.cancel()
    }
}
