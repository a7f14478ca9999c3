import CadenceSupport
extension Publisher where Output: Publisher, Output.Failure == Failure {
    /// Republishes elements sent by the most recently received publisher.
    ///
    /// ```swift
    /// searchTerms
    ///     .map { term in search(term) }
    ///     .switchToLatest()
    ///     .sink(receiveCompletion: { _ in }, receiveValue: { results = $0 })
    /// ```
    ///
    /// When a new publisher arrives, the previous one is cancelled.
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Failure == Never, Output: Publisher {
    /// Republishes elements sent by the most recently received publisher, the upstream taking on their failure type.
    public func switchToLatest() -> Publishers.SwitchToLatest<
        Output, Publishers.SetFailureType<Self, Output.Failure>
    > {
        setFailureType(to: Output.Failure.self).switchToLatest()
    }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
    /// Republishes elements sent by the most recently received publisher, each taking on the upstream's failure
    /// type.
    public func switchToLatest() -> Publishers.SwitchToLatest<
        Publishers.SetFailureType<Output, Failure>,
        Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
    > {
        map { $0.setFailureType(to: Failure.self) }.switchToLatest()
    }
}

extension Publisher where Failure == Never, Output: Publisher, Output.Failure == Never {
    /// Republishes elements sent by the most recently received publisher, neither of which fails.
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publishers {
    /// A publisher that flattens nested publishers: it republishes the elements of the latest one only.
    ///
    /// Demand: it requests `.unlimited` from the upstream (publishers are cheap to receive and each replaces the last),
    /// and passes the downstream's demand to the current inner publisher; a new inner publisher is asked for the
    /// demand still outstanding. It finishes when the upstream and the current inner publisher have finished, and
    /// fails when either fails.
    public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
    where P == Upstream.Output, P.Failure == Upstream.Failure {
        public typealias Output = P.Output
        public typealias Failure = P.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that republishes the elements of the latest publisher `upstream` sent.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Hands the subscriber its subscription, then subscribes to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let outer = Outer(downstream: subscriber)
            subscriber.receive(subscription: outer)
            upstream.subscribe(outer)
        }
    }
}

extension Publishers.SwitchToLatest {
    /// The subscription handed to the downstream, and the subscriber to the upstream.
    ///
    /// One thread at a time calls the downstream (`isEmitting`); a value from the current inner publisher that
    /// arrives meanwhile (from another thread, or from inside the downstream) is queued and delivered next. A value
    /// an inner publisher sends beyond the demand it was given waits in the queue for more demand.
    private final class Outer<Downstream: Subscriber>: Subscriber, Subscription, IndexedSideHost,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == P.Output, Downstream.Failure == P.Failure {
        typealias Input = P
        typealias Failure = P.Failure
        typealias SideIndex = UInt64
        typealias SideInput = P.Output
        typealias SideFailure = P.Failure

        /// The latest inner publisher: its index, and its subscription once it arrived.
        private struct Current {
            let index: UInt64
            var subscription: (any Subscription)?
        }

        // `lock` guards every stored var below.
        private let lock = UnfairLock()
        private var downstream: Downstream?
        private var upstream = SingleUpstreamLink.awaiting
        private var upstreamFinished = false
        private var current: Current?
        private var nextIndex: UInt64 = 0
        private var demand = Subscribers.Demand.none
        private var queue = RingBuffer<P.Output>()
        private var isEmitting = false
        private var isTerminated = false
        /// A completion decided while another thread was emitting; the emitter delivers it after the queue.
        private var pendingCompletion: Subscribers.Completion<Failure>?

        init(downstream: Downstream) {
            self.downstream = downstream
        }

        // MARK: Upstream

        func receive(subscription: any Subscription) {
            lock.lock()
            guard !isTerminated, upstream.attach(subscription) else {
                lock.unlock()
                subscription.cancel()
                return
            }
            lock.unlock()
            subscription.request(.unlimited)
        }

        func receive(_ input: P) -> Subscribers.Demand {
            lock.lock()
            guard !isTerminated else {
                lock.unlock()
                return .none
            }
            let previous = current?.subscription
            let index = nextIndex
            nextIndex += 1
            current = Current(index: index)
            lock.unlock()
            previous?.cancel()
            input.subscribe(IndexedSide(index: index, host: self))
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard !isTerminated else {
                lock.unlock()
                return
            }
            upstream = .completed
            switch completion {
            case .finished:
                upstreamFinished = true
                guard current == nil else {
                    lock.unlock()
                    return
                }
                let downstream = completeLocked(with: .finished)
                lock.unlock()
                downstream?.receive(completion: .finished)
            case .failure:
                let inner = current.take()?.subscription
                let dropped = takeQueueLocked()
                let downstream = completeLocked(with: completion)
                lock.unlock()
                withExtendedLifetime(dropped) {}
                inner?.cancel()
                downstream?.receive(completion: completion)
            }
        }

        // MARK: Inner publishers

        func receive(subscription: any Subscription, at index: UInt64) {
            lock.lock()
            guard !isTerminated, let current, current.index == index, current.subscription == nil else {
                lock.unlock()
                subscription.cancel()
                return
            }
            self.current?.subscription = subscription
            let outstanding = demand
            lock.unlock()
            if outstanding > 0 {
                subscription.request(outstanding)
            }
        }

        func receive(_ value: P.Output, at index: UInt64) -> Subscribers.Demand {
            lock.lock()
            guard !isTerminated, current?.index == index else {
                lock.unlock()
                return .none
            }
            guard !isEmitting, queue.isEmpty, demand > 0, let downstream else {
                queue.append(value) // another thread emits, or the inner sent more than it was asked for
                lock.unlock()
                return .none
            }
            demand -= 1
            isEmitting = true
            lock.unlock()
            let more = downstream.receive(value)
            lock.lock()
            var answer = Subscribers.Demand.none
            var moreFromCurrent: (any Subscription)?
            if more > 0 {
                demand += more
                if current?.index == index {
                    answer = more
                } else {
                    moreFromCurrent = current?.subscription // the publisher switched meanwhile
                }
            }
            if let moreFromCurrent {
                lock.unlock()
                moreFromCurrent.request(more)
                lock.lock()
            }
            drainLocked()
            return answer
        }

        func receive(completion: Subscribers.Completion<Failure>, at index: UInt64) {
            lock.lock()
            guard !isTerminated, current?.index == index else {
                lock.unlock()
                return
            }
            current = nil
            switch completion {
            case .finished:
                guard upstreamFinished else {
                    lock.unlock()
                    return
                }
                let downstream = completeLocked(with: .finished)
                lock.unlock()
                downstream?.receive(completion: .finished)
            case .failure:
                let upstreamSubscription = upstream.close()
                let dropped = takeQueueLocked()
                let downstream = completeLocked(with: completion)
                lock.unlock()
                withExtendedLifetime(dropped) {}
                upstreamSubscription?.cancel()
                downstream?.receive(completion: completion)
            }
        }

        // MARK: Subscription

        func request(_ additional: Subscribers.Demand) {
            additional.assertPositive(in: "SwitchToLatest")
            lock.lock()
            guard downstream != nil else {
                lock.unlock()
                return
            }
            demand += additional
            let inner = current?.subscription
            guard !isEmitting, !queue.isEmpty || pendingCompletion != nil else {
                lock.unlock()
                inner?.request(additional)
                return
            }
            // Queued values go first: this thread emits, and what the inner sends in answer queues behind them.
            isEmitting = true
            lock.unlock()
            inner?.request(additional)
            lock.lock()
            drainLocked()
        }

        func cancel() {
            lock.lock()
            guard downstream != nil else {
                lock.unlock()
                return
            }
            isTerminated = true
            // The downstream and the queued values are released here, outside the lock: a deinitialiser among them
            // may call back into this subscription.
            let released = (downstream, queue)
            downstream = nil
            pendingCompletion = nil
            queue.removeAll()
            let inner = current.take()?.subscription
            let upstreamSubscription = upstream.close()
            lock.unlock()
            withExtendedLifetime(released) {}
            inner?.cancel()
            upstreamSubscription?.cancel()
        }

        // MARK: Emitting

        /// Empties the queue and hands its values back, so a failure can let them go after leaving the lock (a
        /// deinitialiser among them may call back in). Call with `lock` held.
        private func takeQueueLocked() -> RingBuffer<P.Output> {
            defer { queue.removeAll() }
            return queue
        }

        /// Stops taking events and returns the downstream to complete now, or `nil` when the completion must wait:
        /// for the emitter to finish its current value, or, when finishing, for the queued values to go out. A
        /// failure drops the queue. Call with `lock` held.
        private func completeLocked(with completion: Subscribers.Completion<Failure>) -> Downstream? {
            isTerminated = true
            if case .failure = completion {
                queue.removeAll()
            }
            if isEmitting || !queue.isEmpty {
                pendingCompletion = completion
                return nil
            }
            return downstream.take()
        }

        /// Delivers queued values while there is demand, then the completion if it is due, then gives up the
        /// emitter role. Call with `lock` held and `isEmitting` set; returns with `lock` released.
        private func drainLocked() {
            while demand > 0, let downstream, let value = queue.popFirst() {
                demand -= 1
                lock.unlock()
                let more = downstream.receive(value)
                lock.lock()
                guard more > 0 else { continue }
                demand += more
                guard !isTerminated, let inner = current?.subscription else { continue }
                lock.unlock()
                inner.request(more)
                lock.lock()
            }
            isEmitting = false
            guard queue.isEmpty, let completion = pendingCompletion.take() else {
                lock.unlock()
                return
            }
            let downstream = self.downstream.take()
            lock.unlock()
            downstream?.receive(completion: completion)
        }

        // MARK: Reflection

        var description: String { "SwitchToLatest" }

        var customMirror: Mirror {
            lock.lock()
            defer { lock.unlock() }
            return Mirror(self, children: ["downstream": downstream as Any, "demand": demand])
        }

        var playgroundDescription: Any { description }
    }
}

