extension Publishers {
    /// A publisher that applies an error-throwing closure to all received elements and produces an accumulated value
    /// when the upstream publisher finishes.
    ///
    /// It requests `.unlimited` from the upstream and delivers the result once the downstream has requested a value.
    /// If the closure throws, it cancels the upstream and fails with the thrown error.
    public struct TryReduce<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The initial value provided on the first invocation of the closure.
        public let initial: Output

        /// An error-throwing closure that takes the previously-accumulated value and the next element from the
        /// upstream to produce a new value.
        ///
        /// If this closure throws an error, the publisher fails and passes the error to its subscriber.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates a publisher that reduces the upstream's elements with the throwing `nextPartialResult`, starting
        /// from `initial`.
        public init(
            upstream: Upstream,
            initial: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let strategy = TryReduceStrategy<Upstream.Output, Output, Upstream.Failure>(initial: initial)
            upstream.subscribe(
                ReducingSubscription(strategy: strategy, body: nextPartialResult, downstream: subscriber))
        }
    }
}

extension Publisher {
    /// Applies an error-throwing closure that collects each element of a stream and publishes a final result upon
    /// completion.
    ///
    /// If the closure throws an error, the publisher fails, passing the error to its subscriber.
    ///
    /// - Parameters:
    ///   - initialResult: The value that the closure receives the first time it's called.
    ///   - nextPartialResult: An error-throwing closure that takes the previously-accumulated value and the next
    ///     element from the upstream publisher to produce a new value.
    /// - Returns: A publisher that applies the closure to all received elements and produces an accumulated value
    ///   when the upstream publisher finishes.
    public func tryReduce<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryReduce<Self, T> {
        Publishers.TryReduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }
}

/// Folds every value into an accumulator with a throwing closure.
private struct TryReduceStrategy<Input, Output, UpstreamFailure: Error>: ReducingStrategy {
    typealias Failure = any Error
    typealias Body = (Output, Input) throws -> Output

    let initial: Output
    var accumulator: Output

    init(initial: Output) {
        self.initial = initial
        accumulator = initial
    }

    static var name: String { "TryReduce" }

    var partialResult: Output? { accumulator }

    var initialResult: Output? { initial }

    mutating func reduce(_ input: Input, using body: Body) -> ReducingStep<Failure> {
        do {
            accumulator = try body(accumulator, input)
            return .continue
        } catch {
            return .fail(error)
        }
    }

    static func failure(from error: UpstreamFailure) -> Failure { error }

    mutating func takeResult() -> Output? { accumulator }
}
