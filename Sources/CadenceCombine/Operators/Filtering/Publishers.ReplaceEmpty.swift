import CadenceSupport

extension Publishers {
    /// A publisher that replaces an empty stream with a provided element.
    ///
    /// Values and failures pass through unchanged. If the upstream finishes without a value, `output` goes out before
    /// the completion, once the downstream has requested a value.
    ///
    /// As Combine's, it passes the downstream's demand to the upstream and, once the downstream has its subscription,
    /// also asks the upstream for `.unlimited`: an upstream that honours demand may then deliver more values than the
    /// downstream asked for, and they reach it.
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The element to deliver when the upstream publisher finishes without delivering any elements.
        public let output: Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that publishes `output` when `upstream` finishes empty.
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ReplaceEmptySubscription(output: output, downstream: subscriber))
        }
    }
}

extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publisher {
    /// Replaces an empty stream with the provided element.
    ///
    /// ```swift
    /// Empty<Int, Never>().replaceEmpty(with: 42).sink { print($0) } // Prints "42"
    /// ```
    ///
    /// - Parameter output: An element to emit when the upstream publisher finishes without emitting any elements.
    /// - Returns: A publisher that replaces an empty stream with the provided output element.
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}

/// Forwards values and demand, and remembers whether any value came through. As in Combine, the downstream stays
/// with the subscription for its whole life, ended or not.
private final class ReplaceEmptySubscription<Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private enum Phase {
        case awaitingSubscription
        case forwarding(any Subscription)
        /// The upstream finished empty; `output` waits for the downstream's first request.
        case holding
        case terminal
    }

    private let output: Input

    // Touched only from upstream events, which the contract serialises: no lock.
    private var receivedValue = false

    // `lock` guards `phase` and `demanded`.
    private let lock = UnfairLock()
    private var phase = Phase.awaitingSubscription
    private let downstream: Downstream
    private var demanded = false

    init(output: Input, downstream: Downstream) {
        self.output = output
        self.downstream = downstream
    }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription = phase else {
            lock.unlock()
            subscription.cancel()
            return
        }
        phase = .forwarding(subscription)
        lock.unlock()
        downstream.receive(subscription: self)
        // As Combine does: once the downstream has its subscription, the upstream is asked for everything, whatever
        // the downstream requests (values beyond its demand reach it).
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .forwarding = phase else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        receivedValue = true
        return downstream.receive(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard case .forwarding = phase else {
            lock.unlock()
            return
        }
        // `ended` keeps the upstream's subscription alive until here, so its release runs unlocked.
        let ended = phase
        defer { withExtendedLifetime(ended) {} }
        guard !receivedValue, case .finished = completion else {
            phase = .terminal
            lock.unlock()
            downstream.receive(completion: completion)
            return
        }
        guard demanded else {
            phase = .holding
            lock.unlock()
            return
        }
        phase = .terminal
        lock.unlock()
        deliverReplacement()
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand.isPositive(in: "ReplaceEmpty") else { return }
        lock.lock()
        switch phase {
        case .awaitingSubscription:
            demanded = true
            lock.unlock()
        case .forwarding(let upstream):
            demanded = true
            lock.unlock()
            upstream.request(demand)
        case .holding:
            phase = .terminal
            lock.unlock()
            deliverReplacement()
        case .terminal:
            lock.unlock()
        }
    }

    func cancel() {
        lock.lock()
        let upstream: (any Subscription)? = if case .forwarding(let upstream) = phase { upstream } else { nil }
        phase = .terminal
        lock.unlock()
        upstream?.cancel()
    }

    private func deliverReplacement() {
        _ = downstream.receive(output)
        downstream.receive(completion: .finished)
    }

    var description: String { "ReplaceEmpty" }

    /// No children, as Combine's.
    var customMirror: Mirror { Mirror(self, children: [:]) }

    var playgroundDescription: Any { description }
}
