import CadenceSupport

extension Publishers {
    /// A publisher that buffers a maximum number of items.
    ///
    /// Demand is counted in arrays: each array the downstream requests (through `request(_:)` or the demand it
    /// returns from `receive(_:)`) asks the upstream for `count` elements. When the upstream finishes, a final,
    /// shorter array of the elements left over goes out before the completion; when it fails, they are dropped.
    public struct CollectByCount<Upstream: Publisher>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The maximum number of received elements to buffer before publishing.
        public let count: Int

        /// Creates a publisher that publishes the elements of `upstream` in arrays of `count`.
        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            require(count > 0, "CollectByCount: collect(_:) needs a count greater than zero, got \(count)")
            upstream.subscribe(CollectByCountSubscription(count: count, downstream: subscriber))
        }
    }
}

extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Collects up to the specified number of elements, and then emits a single array of the collection.
    ///
    /// If the upstream publisher finishes before collecting the specified number of elements, the publisher sends
    /// an array of only the items it received. If the upstream publisher fails with an error, this publisher
    /// forwards the error to the downstream receiver instead of sending its output.
    ///
    /// ```swift
    /// (0..<5).publisher.collect(2).sink { print($0) } // Prints "[0, 1]", "[2, 3]", "[4]"
    /// ```
    ///
    /// - Parameter count: The maximum number of received elements to buffer before publishing; it must be positive.
    /// - Returns: A publisher that collects up to the specified number of elements, and then publishes them as an
    ///   array.
    public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
        Publishers.CollectByCount(upstream: self, count: count)
    }
}

/// Fills a buffer from the upstream and hands each full one downstream; demand is multiplied by `count` on the way
/// up.
///
/// As in Combine, every completion the upstream sends goes downstream — a second one, or one after a cancel, too —
/// while values reach the downstream only while the subscription is live, and the leftover buffer only with a live
/// upstream's `.finished`. The downstream stays with the subscription for its whole life, ended or not.
private final class CollectByCountSubscription<Input, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == [Input] {
    typealias Failure = Downstream.Failure

    private let count: Int

    // Touched only from upstream events, which the contract serialises: no lock.
    private var buffer: [Input] = []

    // `lock` guards `status`.
    private let lock = UnfairLock()
    private var status: SubscriptionStatus<Void> = .awaitingSubscription(())
    private let downstream: Downstream

    init(count: Int, downstream: Downstream) {
        self.count = count
        self.downstream = downstream
    }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard status.receive(subscription: subscription) != nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        lock.unlock()
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        buffer.append(input)
        guard buffer.count >= count else { return .none }
        let batch = buffer
        buffer = []
        lock.lock()
        guard status.isSubscribed else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        return downstream.receive(batch) * count
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // Every completion goes on, as Combine's does: one before the subscription (no subscription is taken after
        // it), a second one, one after a cancel. `ended` keeps the upstream's subscription alive until here, so its
        // release runs unlocked.
        let ended = status.terminate()
        lock.unlock()
        let rest = buffer
        buffer = []
        if ended.isSubscribed, case .finished = completion, !rest.isEmpty {
            _ = downstream.receive(rest)
        }
        downstream.receive(completion: completion)
        withExtendedLifetime(ended) {}
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand.isPositive(in: "CollectByCount") else { return }
        lock.lock()
        guard let upstream = status.subscription else {
            lock.unlock()
            return
        }
        lock.unlock()
        upstream.request(demand * count)
    }

    func cancel() {
        lock.lock()
        // Before the upstream's subscription the downstream has not got this one, so only a caller that kept the
        // subscriber can cancel here: Combine ignores that, and takes the subscription when it comes.
        if case .awaitingSubscription = status {
            lock.unlock()
            return
        }
        // `released` keeps the upstream's subscription alive until here, so its release runs unlocked.
        let released = status.terminate()
        lock.unlock()
        released.subscription?.cancel()
        withExtendedLifetime(released) {}
    }

    var description: String { "CollectByCount" }

    /// Combine's children. Like Combine's, the mirror reads the buffer without waiting for a value that the upstream
    /// is delivering on another thread: take it between values.
    var customMirror: Mirror {
        lock.lock()
        defer { lock.unlock() }
        let children: [Mirror.Child] = [
            ("downstream", downstream),
            ("upstreamSubscription", status.subscription as Any),
            ("buffer", buffer),
            ("count", count),
        ]
        return Mirror(self, children: children)
    }

    var playgroundDescription: Any { description }
}
