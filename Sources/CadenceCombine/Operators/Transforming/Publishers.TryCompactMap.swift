extension Publisher {
    /// Calls an error-throwing closure with each received element and publishes any returned optional that has a
    /// value.
    ///
    /// If the closure throws, the publisher cancels the upstream and fails with the thrown error. A `nil` result is
    /// answered with `.max(1)`, so the upstream sends one more in its place.
    ///
    /// - Parameter transform: A closure that receives a value and returns an optional value, or throws.
    /// - Returns: A publisher of the non-`nil` results of calling the closure.
    public func tryCompactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Self, T> {
        Publishers.TryCompactMap(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// A publisher that republishes all non-`nil` results of calling an error-throwing closure with each received
    /// element.
    ///
    /// Demand passes upstream unchanged; a `nil` result asks the upstream for one more (`.max(1)`).
    public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// An error-throwing closure that receives values from the upstream publisher and returns optional values.
        public let transform: (Upstream.Output) throws -> Output?

        /// Creates a publisher that republishes the non-`nil` results of calling `transform`, failing if it throws.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches the subscriber to the upstream through this operator.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.subscribe(
                TransformSubscription(downstream: subscriber, operation: Step(transform: transform), initialState: ()))
        }
    }
}

extension Publishers.TryCompactMap {
    /// Fuses two try-compact-maps into one.
    public func compactMap<T>(
        _ transform: @escaping (Output) throws -> T?
    ) -> Publishers.TryCompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryCompactMap(upstream: upstream) { try first($0).flatMap(transform) }
    }
}

extension Publishers.TryCompactMap {
    private struct Step: TransformOperation {
        let transform: (Upstream.Output) throws -> Output?

        static var description: String { "TryCompactMap" }

        static var conduct: TransformConduct { .strict }

        static var rejectsZeroDemand: Bool { true }

        func step(_ input: Upstream.Output, state: inout Void) -> TransformStep<Output, any Error> {
            do {
                guard let output = try transform(input) else { return .skip }
                return .emit(output)
            } catch {
                return .fail(error)
            }
        }

        func failure(from upstreamFailure: Upstream.Failure) -> any Error { upstreamFailure }
    }
}
