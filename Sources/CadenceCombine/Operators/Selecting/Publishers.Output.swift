import CadenceSupport

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
        require(maxLength >= 0, "Output: prefix(_:) needs a maxLength of zero or more, got \(maxLength)")
        return output(in: ..<maxLength)
    }

    /// Publishes a specific element, indicated by its index in the sequence of published elements.
    ///
    /// If the upstream completes before publishing the element, this publisher publishes nothing.
    ///
    /// - Parameter index: The index that indicates the element to publish.
    /// - Returns: A publisher that publishes a specific indexed element.
    public func output(at index: Int) -> Publishers.Output<Self> {
        require(
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
            require(
                range.lowerBound >= 0 && range.upperBound >= 0,
                "Output: the range of indices must not have a negative bound, got \(range)")
            self.upstream = upstream
            self.range = range
        }

        /// Attaches the subscriber to the upstream through this operator.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let countdown = Countdown(beforeStart: range.lowerBound, toPublish: range.count)
            upstream.subscribe(
                TransformSubscription(downstream: subscriber, operation: Step(), initialState: countdown))
        }
    }
}

extension Publishers.Output: Equatable where Upstream: Equatable {}

extension Publishers.Output {
    /// How many values are still to skip before the range, and how many to publish in it.
    private struct Countdown {
        var beforeStart: Int
        var toPublish: Int
    }

    /// Skips the values before the range, publishes those in it, and finishes on the first value after it.
    private struct Step: TransformOperation {
        static var description: String { "Output" }

        static var conduct: TransformConduct { .passThrough(failsAfterEnd: false) }

        func step(_ input: Upstream.Output, state: inout Countdown) -> TransformStep<Upstream.Output, Failure> {
            if state.beforeStart > 0 {
                state.beforeStart -= 1
                return .skip
            }
            if state.toPublish > 0 {
                state.toPublish -= 1
                return .emit(input)
            }
            return .finish
        }

        func failure(from upstreamFailure: Failure) -> Failure { upstreamFailure }
    }
}
