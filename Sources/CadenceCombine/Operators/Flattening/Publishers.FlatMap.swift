import CadenceSupport

extension Publisher {
    /// Transforms all elements from an upstream publisher into a new publisher up to a maximum number of publishers
    /// you specify.
    ///
    /// ```swift
    /// stations
    ///     .flatMap(maxPublishers: .max(2)) { station in loadObservations(for: station) }
    ///     .sink(receiveCompletion: { _ in }, receiveValue: { print($0) })
    /// ```
    ///
    /// - Parameters:
    ///   - maxPublishers: The maximum number of concurrent publisher subscriptions, `.unlimited` by default.
    ///   - transform: A closure that takes an element and returns a publisher of the flattened elements.
    public func flatMap<T, P>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where T == P.Output, P: Publisher, Failure == P.Failure {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publisher where Failure == Never {
    /// Transforms all elements from a publisher that never fails into new publishers that may fail: the upstream
    /// takes on their failure type.
    public func flatMap<P>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> where P: Publisher {
        setFailureType(to: P.Failure.self).flatMap(maxPublishers: maxPublishers, transform)
    }

    /// Transforms all elements from a publisher that never fails into new publishers that never fail either.
    public func flatMap<P>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where P: Publisher, P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publisher {
    /// Transforms all elements into new publishers that never fail: they take on the upstream's failure type.
    public func flatMap<P>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P: Publisher, P.Failure == Never {
        flatMap(maxPublishers: maxPublishers) { transform($0).setFailureType(to: Failure.self) }
    }
}

extension Publishers {
    /// A publisher that transforms elements from an upstream publisher into a new publisher and flattens the values
    /// of every such publisher into one stream.
    ///
    /// Demand: it requests `maxPublishers` from the upstream, and one more each time an inner publisher finishes.
    /// Each inner publisher is asked for one value at a time (`.unlimited` once the downstream asked for
    /// `.unlimited`); a value that arrives while the downstream has no demand waits in a buffer, and its publisher is
    /// asked for the next one only when it went out; as in Combine, each `.finished` an inner publisher sends asks
    /// for one more, a second one from the same inner too. It finishes when the upstream and every inner publisher
    /// have finished, and fails at the first failure, cancelling everything else.
    ///
    /// As in Combine, an inner publisher's `cancel()` that calls back into flatMap on the same thread, when flatMap
    /// cancels it on the upstream's failure, is a misuse: Cadence stops, naming it, or reports it into the running
    /// test and drops that call.
    public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        public typealias Output = NewPublisher.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The maximum number of concurrent publisher subscriptions.
        public let maxPublishers: Subscribers.Demand

        /// A closure that takes an element and returns a publisher of the flattened elements.
        public let transform: (Upstream.Output) -> NewPublisher

        /// Creates a publisher that flattens the publishers `transform` makes of the upstream's elements.
        public init(
            upstream: Upstream,
            maxPublishers: Subscribers.Demand,
            transform: @escaping (Upstream.Output) -> NewPublisher
        ) {
            self.upstream = upstream
            self.maxPublishers = maxPublishers
            self.transform = transform
        }

        /// Hands the subscriber its subscription, then subscribes to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let outer = Outer(downstream: subscriber, maxPublishers: maxPublishers, transform: transform)
            subscriber.receive(subscription: outer)
            upstream.subscribe(outer)
        }
    }
}

extension Publishers.FlatMap {
    /// The subscription handed to the downstream, and the subscriber to the upstream.
    ///
    /// Delivery goes through a `BufferedDelivery`: one thread at a time holds its token and alone calls the
    /// downstream, draining the buffer while there is demand. A value arriving from an inner publisher while another
    /// thread delivers, or without demand, is buffered, so the downstream never gets two calls at once and values keep
    /// the order in which they arrived. One that arrives on the delivering thread itself, sent from inside the
    /// downstream's `receive(_:)`, goes out at once, nested in that call, as in Combine, when nothing is buffered and
    /// there is demand.
    ///
    /// Its methods run unspecialised (reached through the publishers' protocols), so what they touch on every value
    /// is of a type whose metadata needs no look-up at run time: the downstream is in a `SubscriberBox`, and the
    /// inner publishers' links are of a type that is not generic (`FlatMapInnerLink`).
    private final class Outer<Downstream: Subscriber>: Subscriber, Subscription, IndexedSideHost,
        BufferedDeliveryHost, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == NewPublisher.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure
        typealias SideIndex = Int
        typealias SideInput = NewPublisher.Output
        typealias SideFailure = NewPublisher.Failure

        private let maxPublishers: Subscribers.Demand
        private let transform: (Upstream.Output) -> NewPublisher
        /// Set when the inner publishers are `SingleValuePublisher`s: their values are taken without subscribing.
        private let singleValueReader: SingleValueReader<NewPublisher>?

        // `lock` guards `delivery` and every stored var below; `deliveryToken` is atomic.
        let lock = UnfairLock()
        let deliveryToken: DeliveryToken
        @exclusivity(unchecked) var delivery: BufferedDelivery<NewPublisher.Output>
        @exclusivity(unchecked) private var downstream: SubscriberBox<Downstream>?
        private var upstream = SingleUpstreamLink.awaiting
        @exclusivity(unchecked) private var upstreamFinished = false
        @exclusivity(unchecked) private var inners: [Int: FlatMapInnerLink] = [:]
        @exclusivity(unchecked) private var nextInnerIndex = 0
        /// Inner publishers whose value is taken without a subscription (`SingleValuePublisher`) and that have not
        /// finished yet: they count among the unfinished inners as those in `inners` do.
        @exclusivity(unchecked) private var singleValueInners = 0
        @exclusivity(unchecked) private var isTerminated = false
        /// A completion that arrived while another thread was delivering; the token holder delivers it.
        private var pendingCompletion: Subscribers.Completion<Failure>?
        /// The threads cancelling the inner publishers on the upstream's failure: Combine cancels them under its
        /// lock, and traps when an inner's `cancel()` calls back into flatMap, which takes that lock.
        private let cancellingOnFailure = ReentranceCheck()

        init(
            downstream: Downstream, maxPublishers: Subscribers.Demand,
            transform: @escaping (Upstream.Output) -> NewPublisher
        ) {
            self.downstream = SubscriberBox(downstream)
            self.maxPublishers = maxPublishers
            self.transform = transform
            singleValueReader = makeSingleValueReader(for: NewPublisher.self)
            let token = DeliveryToken(nestsReentrantValues: true)
            deliveryToken = token
            delivery = BufferedDelivery(token: token)
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
            subscription.request(maxPublishers)
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            guard notInsideCancelOnFailure("receive(_:)") else { return .none }
            lock.lock()
            guard !isTerminated else {
                lock.unlock()
                return .none
            }
            let index = nextInnerIndex
            nextInnerIndex += 1
            guard let singleValueReader else {
                inners[index] = .awaiting
                lock.unlock()
                transform(input).subscribe(IndexedSide(index: index, host: self))
                return .none
            }
            singleValueInners += 1
            lock.unlock()
            let value = singleValueReader.value(of: transform(input))
            receiveSingleValue(value, at: index)
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            guard notInsideCancelOnFailure("receive(completion:)") else { return }
            lock.lock()
            guard !isTerminated else {
                lock.unlock()
                return
            }
            upstream = .completed
            switch completion {
            case .finished:
                upstreamFinished = true
                guard hasNoInnersLocked, delivery.buffer.isEmpty, !delivery.leaveToDeliverer() else {
                    lock.unlock()
                    return
                }
                let downstream = terminateLocked(with: .finished)
                lock.unlock()
                downstream?.subscriber.receive(completion: .finished)
            case .failure:
                let subscriptions = inners.values.compactMap(\.subscription)
                inners = [:]
                // The buffered values are let go outside the lock: a deinitialiser may call back in.
                let dropped = delivery.removeBuffered()
                let downstream = terminateLocked(with: completion)
                lock.unlock()
                withExtendedLifetime(dropped) {}
                cancellingOnFailure.inside {
                    for subscription in subscriptions {
                        subscription.cancel()
                    }
                }
                downstream?.subscriber.receive(completion: completion)
            }
        }

        // MARK: Inner publishers

        func receive(subscription: any Subscription, at index: Int) {
            lock.lock()
            guard !isTerminated, case .awaiting? = inners[index] else {
                lock.unlock()
                subscription.cancel()
                return
            }
            inners[index] = .subscribed(subscription)
            let initial: Subscribers.Demand = delivery.demand == .unlimited ? .unlimited : .max(1)
            lock.unlock()
            subscription.request(initial)
        }

        func receive(_ value: NewPublisher.Output, at index: Int) -> Subscribers.Demand {
            guard notInsideCancelOnFailure("an inner publisher's receive(_:)") else { return .none }
            lock.lock()
            guard !isTerminated, let downstream else {
                lock.unlock()
                return .none
            }
            return deliverLocked(value, from: index, to: downstream.subscriber)
        }

        func receive(completion: Subscribers.Completion<Failure>, at index: Int) {
            guard notInsideCancelOnFailure("an inner publisher's receive(completion:)") else { return }
            lock.lock()
            guard !isTerminated else {
                lock.unlock()
                return
            }
            guard inners.removeValue(forKey: index) != nil else {
                // As Combine's, every `.finished` an inner publisher sends counts, a second one from an inner that
                // finished already too: one more publisher is asked of the upstream for it.
                guard case .finished = completion else {
                    lock.unlock()
                    return
                }
                innerFinishedLocked()
                return
            }
            switch completion {
            case .finished:
                innerFinishedLocked()
            case .failure:
                let subscriptions = inners.values.compactMap(\.subscription)
                inners = [:]
                let upstreamSubscription = upstream.close()
                let dropped = delivery.removeBuffered()
                let downstream = terminateLocked(with: completion)
                lock.unlock()
                withExtendedLifetime(dropped) {}
                for subscription in subscriptions {
                    subscription.cancel()
                }
                upstreamSubscription?.cancel()
                downstream?.subscriber.receive(completion: completion)
            }
        }

        /// What subscribing to a `SingleValuePublisher` would have done, without the subscription: the inner's
        /// value arrives as on its first request (always positive), then it finishes. Nothing asks it for more: a
        /// buffered value's inner has finished by the time the value goes out, as a subscribed one has.
        private func receiveSingleValue(_ value: NewPublisher.Output, at index: Int) {
            lock.lock()
            guard !isTerminated, let downstream else {
                lock.unlock()
                return
            }
            _ = deliverLocked(value, from: index, to: downstream.subscriber)
            lock.lock()
            guard !isTerminated else {
                lock.unlock()
                return
            }
            singleValueInners -= 1
            innerFinishedLocked()
        }

        /// An inner publisher has finished (and left `inners` or `singleValueInners`): finishes the downstream if it
        /// was the last one after the upstream's end, else asks the upstream for another when `maxPublishers` is
        /// finite. Called with `lock` held; returns with it released.
        private func innerFinishedLocked() {
            if upstreamFinished && hasNoInnersLocked && delivery.buffer.isEmpty {
                finishAfterLastInnerLocked()
                return
            }
            let upstreamSubscription = maxPublishers == .unlimited ? nil : upstream.subscription
            lock.unlock()
            upstreamSubscription?.request(.max(1))
        }

        /// Finishes the downstream, or leaves it to the token holder. Called with `lock` held; returns with it
        /// released. Out of line: a `.finished` built here costs a look-up of the metadata of
        /// `Subscribers.Completion<Failure>`, which the caller then pays only when it finishes.
        @inline(never)
        private func finishAfterLastInnerLocked() {
            guard !delivery.leaveToDeliverer() else {
                lock.unlock() // the token holder finishes the downstream when it is done
                return
            }
            let downstream = terminateLocked(with: .finished)
            lock.unlock()
            downstream?.subscriber.receive(completion: .finished)
        }

        /// Whether every inner publisher has finished. Called with `lock` held.
        private var hasNoInnersLocked: Bool { inners.isEmpty && singleValueInners == 0 }

        // MARK: Subscription

        func request(_ additional: Subscribers.Demand) {
            guard additional.isPositive(in: "FlatMap"), notInsideCancelOnFailure("request(_:)") else { return }
            lock.lock()
            guard !isTerminated else {
                lock.unlock()
                return
            }
            let unlimitedInners = delivery.add(additional) ? inners.values.compactMap(\.subscription) : []
            guard delivery.takeToken() else {
                lock.unlock()
                for subscription in unlimitedInners {
                    subscription.request(.unlimited)
                }
                return
            }
            lock.unlock()
            // Values the inner publishers send in answer are buffered behind the others: this thread delivers.
            for subscription in unlimitedInners {
                subscription.request(.unlimited)
            }
            lock.lock()
            drainLocked()
        }

        func cancel() {
            guard notInsideCancelOnFailure("cancel()") else { return }
            lock.lock()
            guard downstream != nil else { // a completion still on its way to the emitter is dropped too
                lock.unlock()
                return
            }
            isTerminated = true
            // The downstream, the buffered values and the inners are released at the end of this function, outside
            // the lock: a deinitialiser among them may call back into this subscription.
            let released = (downstream.take(), delivery.removeBuffered(), inners)
            pendingCompletion = nil
            let subscriptions = inners.values.compactMap(\.subscription)
            inners = [:]
            let upstreamSubscription = upstream.close()
            lock.unlock()
            withExtendedLifetime(released) {}
            for subscription in subscriptions {
                subscription.cancel()
            }
            upstreamSubscription?.cancel()
        }

        /// Whether this thread may call in: not when it is inside an inner publisher's `cancel()` made on the
        /// upstream's failure, where Combine traps; there Cadence stops too, or reports into the running test.
        @inline(__always)
        private func notInsideCancelOnFailure(_ call: @autoclosure () -> String) -> Bool {
            combineRule(
                !cancellingOnFailure.isEnteredByCurrentThread,
                """
                FlatMap: \(call()) was called from inside an inner publisher's cancel(), which flatMap made on its \
                upstream's failure, on the same thread
                """)
        }

        // MARK: Delivery

        /// Marks the subscription terminated and returns the downstream to complete now, or `nil` when the token
        /// holder will deliver the completion once its current value went out. Call with `lock` held.
        private func terminateLocked(with completion: Subscribers.Completion<Failure>) -> SubscriberBox<Downstream>? {
            isTerminated = true
            delivery.removeBuffered()
            if delivery.leaveToDeliverer() {
                pendingCompletion = completion
                return nil
            }
            return downstream.take()
        }

        func downstreamForDeliveryLocked() -> Downstream? {
            if !isTerminated, let downstream {
                return downstream.subscriber
            }
            delivery.releaseToken()
            let completion = pendingCompletion.take()
            let downstream = self.downstream.take()
            lock.unlock()
            if let completion {
                downstream?.subscriber.receive(completion: completion)
            }
            return nil
        }

        func subscriptionLocked(forSource source: Int) -> (any Subscription)? {
            inners[source]?.subscription
        }

        func endDeliveryLocked() {
            delivery.releaseToken()
            guard upstreamFinished, hasNoInnersLocked, delivery.buffer.isEmpty else {
                lock.unlock()
                return
            }
            isTerminated = true
            let downstream = self.downstream.take()
            lock.unlock()
            downstream?.subscriber.receive(completion: .finished)
        }

        // MARK: Reflection

        var description: String { "FlatMap" }

        /// No children, as in Combine.
        var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

        var playgroundDescription: Any { description }
    }
}

/// Where flatMap stands with one inner publisher: waiting for its subscription, or holding it. Not nested in the
/// generic operator, so that a dictionary of them is a concrete type, specialised where it is compiled.
private enum FlatMapInnerLink {
    case awaiting
    case subscribed(any Subscription)

    var subscription: (any Subscription)? {
        if case .subscribed(let subscription) = self { return subscription }
        return nil
    }
}
