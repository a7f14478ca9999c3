import CadenceSupport

extension Publisher {
    /// Replaces any error from the upstream publisher with the provided single element, then finishes.
    ///
    /// The replacement counts against the downstream's demand: when the upstream fails while the downstream has no
    /// outstanding demand, the element waits for the next `request(_:)`.
    ///
    /// ```swift
    /// fetchTitle().replaceError(with: "Untitled")
    /// ```
    ///
    /// - Parameter output: An element to emit when the upstream publisher fails.
    /// - Returns: A publisher that replaces an error from the upstream publisher with the provided output element.
    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }
}

extension Publishers {
    /// A publisher that replaces any errors in the stream with a provided element.
    ///
    /// Demand passes upstream unchanged; each value is answered with the downstream's own answer. As in Combine, the
    /// subscription keeps its downstream for its whole life, ended or not.
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Never

        /// The element with which to replace errors from the upstream publisher.
        public let output: Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that replaces an upstream failure with `output`, then finishes.
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches the subscriber to the upstream through this operator.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            upstream.subscribe(Inner(downstream: subscriber, output: output))
        }
    }
}

extension Publishers.ReplaceError: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publishers.ReplaceError {
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Never {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private enum Status {
            case awaitingSubscription
            case active(any Subscription)
            /// The upstream failed while the downstream had no outstanding demand: the replacement waits for a request.
            case awaitingDemandForReplacement
            case terminal
        }

        // `lock` guards `status` and `requested`. `answered` and `delivered` are touched only from the upstream's
        // calls, which a publisher serializes. The downstream's outstanding demand is
        // `requested + answered - delivered`.
        private let lock = UnfairLock()
        private var status = Status.awaitingSubscription
        private var requested = Subscribers.Demand.none
        private var answered = Subscribers.Demand.none
        private var delivered = Subscribers.Demand.none
        private let output: Upstream.Output
        private let downstream: Downstream

        init(downstream: Downstream, output: Upstream.Output) {
            self.downstream = downstream
            self.output = output
        }

        private var outstanding: Subscribers.Demand { requested + answered - delivered }

        func receive(subscription: any Subscription) {
            lock.lock()
            guard case .awaitingSubscription = status else {
                lock.unlock()
                subscription.cancel()
                return
            }
            status = .active(subscription)
            lock.unlock()
            downstream.receive(subscription: self)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            lock.lock()
            guard case .active = status else {
                lock.unlock()
                return .none
            }
            require(
                outstanding > .none,
                "ReplaceError: received a value while the downstream had no outstanding demand; "
                    + "a publisher must not send more values than requested")
            lock.unlock()
            delivered += 1
            let demand = downstream.receive(input)
            answered += demand
            return demand
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard case .active = status else {
                lock.unlock()
                return
            }
            // `ended` keeps the upstream's subscription alive until here, so its release runs unlocked.
            let ended = status
            defer { withExtendedLifetime(ended) {} }
            switch completion {
            case .finished:
                status = .terminal
                lock.unlock()
                downstream.receive(completion: .finished)
            case .failure where outstanding > .none:
                status = .terminal
                lock.unlock()
                _ = downstream.receive(output)
                downstream.receive(completion: .finished)
            case .failure:
                status = .awaitingDemandForReplacement
                lock.unlock()
            }
        }

        func request(_ demand: Subscribers.Demand) {
            guard demand.isPositive(in: "ReplaceError") else { return }
            lock.lock()
            switch status {
            case .active(let upstream):
                requested += demand
                lock.unlock()
                upstream.request(demand)
            case .awaitingDemandForReplacement:
                status = .terminal
                lock.unlock()
                _ = downstream.receive(output)
                downstream.receive(completion: .finished)
            case .awaitingSubscription, .terminal:
                lock.unlock()
            }
        }

        func cancel() {
            lock.lock()
            // Before the upstream's subscription the downstream has not got this one, so only a caller that kept the
            // subscriber can cancel here: Combine ignores that, and takes the subscription when it comes.
            if case .awaitingSubscription = status {
                lock.unlock()
                return
            }
            let previous = status
            status = .terminal
            lock.unlock()
            // `previous` keeps the upstream's subscription alive until here, so its release runs unlocked.
            if case .active(let upstream) = previous {
                upstream.cancel()
            }
            withExtendedLifetime(previous) {}
        }

        var description: String { "ReplaceError" }

        /// No children, as Combine's.
        var customMirror: Mirror { Mirror(self, children: [:]) }

        var playgroundDescription: Any { description }
    }
}
