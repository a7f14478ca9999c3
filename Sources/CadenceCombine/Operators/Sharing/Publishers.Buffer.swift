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
    /// finished completion goes out once the buffer is empty and the downstream has demand, as in Combine.
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
    /// The subscriber to the upstream and the subscription handed to the downstream.
    ///
    /// One thread at a time drains the buffer into the downstream (`isEmitting`); a value or request arriving
    /// meanwhile only updates the state, and the emitter picks it up before it lets go.
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let size: Int
        private let prefetch: Publishers.PrefetchStrategy
        private let whenFull: Publishers.BufferingStrategy<Failure>

        // `lock` guards every stored var below.
        private let lock = UnfairLock()
        private var downstream: Downstream?
        private var upstream = SingleUpstreamLink.awaiting
        private var values = RingBuffer<Input>()
        private var demand = Subscribers.Demand.none
        /// The upstream's completion, or the custom error of a full buffer, waiting to go out.
        private var terminal: Subscribers.Completion<Failure>?
        private var isEmitting = false

        init(downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy,
             whenFull: Publishers.BufferingStrategy<Failure>) {
            self.downstream = downstream
            self.size = size
            self.prefetch = prefetch
            self.whenFull = whenFull
        }

        func receive(subscription: any Subscription) {
            lock.lock()
            guard let downstream, upstream.attach(subscription) else {
                lock.unlock()
                subscription.cancel()
                return
            }
            lock.unlock()
            subscription.request(prefetch == .keepFull ? .max(size) : .unlimited)
            downstream.receive(subscription: self)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            // The value `.dropOldest` drops is let go when this returns, outside the lock: a deinitialiser may call
            // back in.
            var dropped: Input?
            defer { withExtendedLifetime(dropped) {} }
            lock.lock()
            guard case .subscribed = upstream, terminal == nil else {
                lock.unlock()
                return .none
            }
            if values.count >= size {
                switch whenFull {
                case .dropNewest:
                    break
                case .dropOldest:
                    dropped = values.popFirst()
                    values.append(input)
                case .customError(let makeError):
                    lock.unlock()
                    failFull(with: makeError())
                    return .none
                }
            } else {
                values.append(input)
            }
            guard !isEmitting else {
                lock.unlock()
                return .none
            }
            isEmitting = true
            return drainLocked().upstreamDemand
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard case .subscribed = upstream, terminal == nil else {
                lock.unlock()
                return
            }
            terminal = completion
            guard !isEmitting else {
                lock.unlock()
                return
            }
            isEmitting = true
            _ = drainLocked()
        }

        func request(_ additional: Subscribers.Demand) {
            additional.assertPositive(in: "Buffer")
            lock.lock()
            guard case .subscribed = upstream else {
                lock.unlock()
                return
            }
            demand += additional
            guard !isEmitting else {
                lock.unlock()
                return
            }
            isEmitting = true
            let (upstreamDemand, subscription) = drainLocked()
            if upstreamDemand > 0 {
                subscription?.request(upstreamDemand)
            }
        }

        func cancel() {
            lock.lock()
            guard case .subscribed(let subscription) = upstream else {
                lock.unlock()
                return
            }
            upstream = .completed
            // The downstream and the buffered values are released here, outside the lock: a deinitialiser among
            // them may call back into this subscription.
            let released = (downstream, values)
            downstream = nil
            values.removeAll()
            lock.unlock()
            withExtendedLifetime(released) {}
            subscription.cancel()
        }

        /// The buffer overflowed with `.customError`: the error waits for the buffered values the downstream asks
        /// for (as in Combine, it goes out with the next request), and the upstream is cancelled.
        private func failFull(with error: Failure) {
            lock.lock()
            guard case .subscribed(let subscription) = upstream, terminal == nil else {
                lock.unlock()
                return
            }
            terminal = .failure(error)
            lock.unlock()
            subscription.cancel()
        }

        /// Delivers buffered values while the downstream has demand, then the completion when it is due, then gives
        /// up the emitter role. Call with `lock` held and `isEmitting` set; returns with `lock` released, and with
        /// the demand to ask of the upstream (one per delivered value with `.keepFull`) and the subscription to ask.
        private func drainLocked() -> (upstreamDemand: Subscribers.Demand, subscription: (any Subscription)?) {
            var upstreamDemand = Subscribers.Demand.none
            while true {
                guard case .subscribed(let subscription) = upstream, let downstream else {
                    isEmitting = false
                    lock.unlock()
                    return (.none, nil)
                }
                if demand > 0, let value = values.popFirst() {
                    demand -= 1
                    lock.unlock()
                    let more = downstream.receive(value)
                    if prefetch == .keepFull {
                        upstreamDemand += 1
                    }
                    lock.lock()
                    demand += more
                    continue
                }
                if let completion = terminal {
                    let isDue: Bool
                    switch completion {
                    case .finished: isDue = demand > 0 && values.isEmpty
                    case .failure: isDue = true
                    }
                    if isDue {
                        upstream = .completed
                        self.downstream = nil
                        // A failure drops the values still buffered: let go outside the lock, as a deinitialiser
                        // may call back in.
                        let dropped = values
                        values.removeAll()
                        isEmitting = false
                        lock.unlock()
                        downstream.receive(completion: completion)
                        withExtendedLifetime(dropped) {}
                        return (.none, nil)
                    }
                }
                isEmitting = false
                let stillSubscribed = terminal == nil
                lock.unlock()
                return (upstreamDemand, stillSubscribed ? subscription : nil)
            }
        }

        var description: String { "Buffer" }

        var customMirror: Mirror {
            lock.lock()
            defer { lock.unlock() }
            return Mirror(self, children: [
                "values": values.elements,
                "downstreamDemand": demand,
                "terminal": terminal as Any,
                "downstream": downstream as Any,
            ])
        }

        var playgroundDescription: Any { description }
    }
}

