import CadenceSupport

extension Publisher {
    /// Buffers elements received from an upstream publisher.
    ///
    /// ```swift
    /// sensorReadings
    ///     .buffer(size: 100, prefetch: .keepFull, whenFull: .dropOldest)
    ///     .sink { reading in store(reading) }
    /// ```
    ///
    /// - Parameters:
    ///   - size: The maximum number of elements to store.
    ///   - prefetch: The strategy to initially populate the buffer.
    ///   - whenFull: The action to take when the buffer becomes full.
    public func buffer(
        size: Int,
        prefetch: Publishers.PrefetchStrategy,
        whenFull: Publishers.BufferingStrategy<Failure>
    ) -> Publishers.Buffer<Self> {
        Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
    }
}

extension Publishers {
    /// A strategy for filling a buffer.
    public enum PrefetchStrategy {
        /// A strategy to fill the buffer at subscription time, and keep it full thereafter.
        case keepFull
        /// A strategy that avoids prefetching and instead performs requests on demand.
        case byRequest
    }

    /// A strategy that handles exhaustion of a buffer's capacity.
    public enum BufferingStrategy<Failure: Error> {
        /// When the buffer is full, discard the newly received element.
        case dropNewest
        /// When the buffer is full, discard the oldest element in the buffer.
        case dropOldest
        /// When the buffer is full, execute the closure to provide a custom error.
        case customError(() -> Failure)
    }

    /// A publisher that buffers elements from an upstream publisher.
    ///
    /// Demand: with `.keepFull` it requests `size` values from the upstream at once and one more for each value it
    /// delivers; with `.byRequest` it requests `.unlimited`, as Combine does. Values wait in the buffer until the
    /// downstream asks for them. A failure goes out as soon as the values the downstream asked for went out; a
    /// finished completion goes out once the buffer is empty and the downstream has demand, as in Combine; a value
    /// the upstream sends while that completion waits still joins the buffer, ahead of it, as in Combine. As in
    /// Combine, the subscription keeps its downstream for as long as it lives, after a cancel or the completion too;
    /// the downstream goes when the upstream and the downstream let go of the subscription.
    ///
    /// A `.customError` closure that calls back into the buffer on the same thread — makes the upstream send again,
    /// say — is a misuse Combine traps on (it calls the closure under its lock): Cadence stops too, naming it, or
    /// reports it into the running test and drops that call.
    ///
    /// Where Cadence decides: nothing reaches the downstream after its completion (Combine's buffer delivers a failure
    /// sent from inside the downstream's `receive(_:)` at once, then the values still buffered).
    public struct Buffer<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The maximum number of elements to store.
        public let size: Int

        /// The strategy for initially populating the buffer.
        public let prefetch: Publishers.PrefetchStrategy

        /// The action to take when the buffer becomes full.
        public let whenFull: Publishers.BufferingStrategy<Failure>

        /// Creates a publisher that buffers elements received from an upstream publisher.
        public init(
            upstream: Upstream,
            size: Int,
            prefetch: Publishers.PrefetchStrategy,
            whenFull: Publishers.BufferingStrategy<Failure>
        ) {
            self.upstream = upstream
            self.size = size
            self.prefetch = prefetch
            self.whenFull = whenFull
        }

        /// Attaches the subscriber to the upstream through the buffer.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, size: size, prefetch: prefetch, whenFull: whenFull))
        }
    }
}

extension Publishers.PrefetchStrategy: Equatable {}
extension Publishers.PrefetchStrategy: Hashable {}

extension Publishers.Buffer {
    /// The subscriber to the upstream and the subscription handed to the downstream: a thin shell that runs
    /// ``BufferStateMachine`` under its lock and performs what each transition returns after leaving it.
    ///
    /// One thread at a time drains the buffer into the downstream; a value or request arriving meanwhile only
    /// updates the state, and the emitter picks it up before it lets go.
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure
        private typealias DrainStep = BufferStateMachine<Downstream>.DrainStep

        private let size: Int
        private let prefetch: Publishers.PrefetchStrategy
        private let state: Locked<BufferStateMachine<Downstream>>
        /// As in Combine, the subscription keeps its downstream for its whole life, after a cancel or the completion
        /// too; the state says whether it may still be called. It goes when the upstream and the downstream let go of the
        /// subscription, never under the lock.
        private let downstream: Downstream
        /// The threads inside the `.customError` closure: Combine calls it under its lock, and traps when the closure
        /// calls back into the buffer, which takes that lock.
        private let makingError = ReentranceCheck()

        init(
            downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy,
            whenFull: Publishers.BufferingStrategy<Failure>
        ) {
            self.size = size
            self.prefetch = prefetch
            state = Locked(BufferStateMachine(downstream: downstream, size: size, whenFull: whenFull))
            self.downstream = downstream
        }

        func receive(subscription: any Subscription) {
            guard let downstream = state.withLock({ $0.receive(subscription: subscription) }) else {
                subscription.cancel()
                return
            }
            subscription.request(prefetch == .keepFull ? .max(size) : .unlimited)
            downstream.receive(subscription: self)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            guard combineRule(!makingError.isEnteredByCurrentThread, Self.reentered("receive(_:)")) else {
                return .none
            }
            switch state.withLock({ $0.receive(input) }) {
            case .none(let dropped):
                // The value `.dropOldest` drops is let go here, outside the lock: a deinitialiser may call back in.
                withExtendedLifetime(dropped) {}
                return .none
            case .overflow(let makeError):
                let error = makingError.inside { makeError() }
                state.withLock { $0.overflowed(with: error) }?.cancel()
                return .none
            case .drain(let first, let dropped):
                withExtendedLifetime(dropped) {}
                return drain(from: first).upstreamDemand
            }
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            guard combineRule(!makingError.isEnteredByCurrentThread, Self.reentered("receive(completion:)")),
                let first = state.withLock({ $0.receive(completion: completion) })
            else { return }
            _ = drain(from: first)
        }

        func request(_ additional: Subscribers.Demand) {
            guard combineRule(!makingError.isEnteredByCurrentThread, Self.reentered("request(_:)")),
                let first = state.withLock({ $0.request(additional) })
            else { return }
            let (upstreamDemand, subscription) = drain(from: first)
            if upstreamDemand > 0 {
                subscription?.request(upstreamDemand)
            }
        }

        func cancel() {
            guard combineRule(!makingError.isEnteredByCurrentThread, Self.reentered("cancel()")),
                let cancelled = state.withLock({ $0.cancel() })
            else { return }
            // The buffered values (and the state's reference to the downstream) go here, outside the lock: a
            // deinitialiser among them may call back into this subscription.
            let upstream = cancelled.previous.subscription
            withExtendedLifetime(cancelled) {}
            upstream?.cancel()
        }

        /// What a call into the buffer from inside its `.customError` closure, on the same thread, breaks.
        private static func reentered(_ call: String) -> String {
            "Buffer: \(call) was called from inside its .customError closure on the same thread"
        }

        /// Performs the drain steps, from `first` until the emitter's turn ends, delivering with the lock released.
        /// Returns the demand to ask of the upstream (one per delivered value with `.keepFull`) and the
        /// subscription to ask.
        private func drain(
            from first: DrainStep
        ) -> (
            upstreamDemand: Subscribers.Demand,
            subscription: (any Subscription)?
        ) {
            var step = first
            var upstreamDemand = Subscribers.Demand.none
            while true {
                switch step {
                case .deliver(let downstream, let value):
                    let more = downstream.receive(value)
                    if prefetch == .keepFull {
                        upstreamDemand += 1
                    }
                    step = state.withLock { $0.delivered(more) }
                case .complete(let downstream, let completion, let released, let refillsUpstream):
                    downstream.receive(completion: completion)
                    withExtendedLifetime(released) {}
                    return refillsUpstream ? (upstreamDemand, released.upstream) : (.none, nil)
                case .stop(let upstream):
                    return (upstreamDemand, upstream)
                case .ended:
                    return (.none, nil)
                }
            }
        }

        var description: String { "Buffer" }

        /// Combine's children, in its order: the buffered values, where the subscription stands, the downstream's
        /// outstanding demand and the completion waiting to go out.
        var customMirror: Mirror {
            let (values, status, demand, terminal) = state.withLock { state in
                let status =
                    state.status.isSubscribed
                    ? "subscribed"
                    : state.status.isTerminal ? "terminal" : "awaitingSubscription"
                return (state.values.elements, status, state.demand, state.terminal)
            }
            return Mirror(
                self,
                children: [
                    "values": values,
                    "state": status,
                    "downstreamDemand": demand,
                    "terminal": terminal as Any,
                ])
        }

        var playgroundDescription: Any { description }
    }
}
