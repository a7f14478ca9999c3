extension Publishers {
    /// A publisher that applies a closure to all received elements and produces an accumulated value when the
    /// upstream publisher finishes.
    ///
    /// It requests `.unlimited` from the upstream and delivers the result once the downstream has requested a value.
    public struct Reduce<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The initial value provided on the first invocation of the closure.
        public let initial: Output

        /// A closure that takes the previously-accumulated value and the next element from the upstream publisher
        /// to produce a new value.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates a publisher that reduces the upstream's elements with `nextPartialResult`, starting from `initial`.
        public init(
            upstream: Upstream,
            initial: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let strategy = ReduceStrategy<Upstream.Output, Output, Failure>(initial: initial)
            upstream.subscribe(
                ReducingSubscription(strategy: strategy, body: nextPartialResult, downstream: subscriber))
        }
    }
}

extension Publisher {
    /// Applies a closure that collects each element of a stream and publishes a final result upon completion.
    ///
    /// ```swift
    /// (1...5).publisher.reduce(0, +).sink { print($0) } // Prints "15"
    /// ```
    ///
    /// - Parameters:
    ///   - initialResult: The value that the closure receives the first time it's called.
    ///   - nextPartialResult: A closure that produces a new value by taking the previously-accumulated value and
    ///     the next element it receives from the upstream publisher.
    /// - Returns: A publisher that applies the closure to all received elements and produces an accumulated value
    ///   when the upstream publisher finishes. If `reduce(_:_:)` receives an error from the upstream publisher, the
    ///   operator delivers it to the downstream subscriber, the publisher terminates and publishes no value.
    public func reduce<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) -> T
    ) -> Publishers.Reduce<Self, T> {
        Publishers.Reduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }
}

/// Folds every value into an accumulator with a non-throwing closure.
private struct ReduceStrategy<Input, Output, Failure: Error>: ReducingStrategy {
    typealias UpstreamFailure = Failure
    typealias Body = (Output, Input) -> Output

    let initial: Output
    var accumulator: Output

    init(initial: Output) {
        self.initial = initial
        accumulator = initial
    }

    static var name: String { "Reduce" }

    var partialResult: Output? { accumulator }

    var initialResult: Output? { initial }

    mutating func reduce(_ input: Input, using body: Body) -> ReducingStep<Failure> {
        accumulator = body(accumulator, input)
        return .continue
    }

    mutating func takeResult() -> Output? { accumulator }
}
