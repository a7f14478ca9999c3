#if !canImport(Combine)

extension Publisher {
    /// Republishes elements up to the specified maximum count.
    ///
    /// ```swift
    /// (0...10).publisher
    ///     .prefix(2)
    ///     .sink { print($0) } // prints 0, then 1
    /// ```
    ///
    /// - Parameter maxLength: The maximum number of elements to republish.
    /// - Returns: A publisher that publishes up to the specified number of elements before completing.
    public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
        precondition(maxLength >= 0, "Output: prefix(_:) needs a maxLength of zero or more, got \(maxLength)")
        return output(in: ..<maxLength)
    }

    /// Publishes a specific element, indicated by its index in the sequence of published elements.
    ///
    /// If the upstream completes before publishing the element, this publisher publishes nothing.
    ///
    /// - Parameter index: The index that indicates the element to publish.
    /// - Returns: A publisher that publishes a specific indexed element.
    public func output(at index: Int) -> Publishers.Output<Self> {
        precondition(
            index >= 0 && index < Int.max,
            "Output: output(at:) needs an index from 0 to Int.max - 1, got \(index)")
        return output(in: index...index)
    }

    /// Publishes elements specified by their range in the sequence of published elements.
    ///
    /// After publishing every element in the range, the publisher finishes. If the upstream completes first, the
    /// rest of the range is not published.
    ///
    /// - Parameter range: A range that indicates which elements to publish.
    /// - Returns: A publisher that publishes elements specified by a range.
    public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self> where R.Bound == Int {
        Publishers.Output(upstream: self, range: range.relative(to: 0..<Int.max))
    }
}

extension Publishers {
    /// A publisher that publishes elements specified by a range in the sequence of published elements.
    ///
    /// `prefix(_:)`, `output(at:)` and `output(in:)` all make this publisher. It answers each value before the range
    /// with `.max(1)`, so the subscriber's demand only counts the values it gets; requests pass through unchanged.
    /// As in Combine, once the range is exhausted it finishes (and cancels the upstream) when the next value
    /// arrives, or when the upstream completes, whichever comes first.
    public struct Output<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// The range of elements to publish.
        public let range: CountableRange<Int>

        /// Creates a publisher that publishes elements specified by a range; traps on a negative bound.
        public init(upstream: Upstream, range: CountableRange<Int>) {
            precondition(
                range.lowerBound >= 0 && range.upperBound >= 0,
                "Output: the range of indices must not have a negative bound, got \(range)")
            self.upstream = upstream
            self.range = range
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, range: range))
        }
    }
}

extension Publishers.Output: Equatable where Upstream: Equatable {}

extension Publishers.Output {
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        // `lock` guards every stored var. `downstream` is nil once the subscription completed or was cancelled.
        private let lock = UnfairLock()
        private var downstream: Downstream?
        private var upstream: (any Subscription)?
        private var remainingBeforeStart: Int
        private var remainingToPublish: Int

        init(downstream: Downstream, range: CountableRange<Int>) {
            self.downstream = downstream
            remainingBeforeStart = range.lowerBound
            remainingToPublish = range.count
        }

        func receive(subscription: any Subscription) {
            lock.lock()
            guard upstream == nil, let downstream else {
                lock.unlock()
                subscription.cancel()
                return
            }
            upstream = subscription
            lock.unlock()
            downstream.receive(subscription: self)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            lock.lock()
            guard let downstream, let upstream else {
                lock.unlock()
                return .none
            }
            if remainingBeforeStart > 0 {
                remainingBeforeStart -= 1
                lock.unlock()
                return .max(1)
            }
            if remainingToPublish > 0 {
                remainingToPublish -= 1
                lock.unlock()
                return downstream.receive(input)
            }
            self.downstream = nil
            self.upstream = nil
            lock.unlock()
            upstream.cancel()
            downstream.receive(completion: .finished)
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard let downstream, upstream != nil else {
                lock.unlock()
                return
            }
            self.downstream = nil
            upstream = nil
            lock.unlock()
            downstream.receive(completion: completion)
        }

        func request(_ demand: Subscribers.Demand) {
            demand.assertPositive(in: "Output")
            lock.lock()
            let upstream = downstream == nil ? nil : self.upstream
            lock.unlock()
            upstream?.request(demand)
        }

        func cancel() {
            lock.lock()
            let upstream = self.upstream
            self.upstream = nil
            downstream = nil
            lock.unlock()
            upstream?.cancel()
        }

        var description: String { "Output" }

        var customMirror: Mirror { Mirror(self, children: [:]) }

        var playgroundDescription: Any { description }
    }
}

#endif
