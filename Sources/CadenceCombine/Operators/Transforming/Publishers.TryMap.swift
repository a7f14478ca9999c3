extension Publisher {
    /// Transforms all elements from the upstream publisher with a provided error-throwing closure.
    ///
    /// If the closure throws, the publisher cancels the upstream and fails with the thrown error.
    ///
    /// ```swift
    /// numbers.tryMap { try romanNumeral(from: $0) }
    /// ```
    ///
    /// - Parameter transform: A closure that takes one element and returns a new element, or throws.
    /// - Returns: A publisher that uses the closure to map elements from the upstream publisher.
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
        Publishers.TryMap(upstream: self, transform: transform)
    }
}

extension Publishers.Map {
    /// Fuses a map and a following try-map into one try-map.
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { try transform(first($0)) }
    }
}

extension Publishers {
    /// A publisher that transforms all elements from the upstream publisher with a provided error-throwing closure.
    ///
    /// Demand passes upstream unchanged; each value is answered with the downstream's own answer.
    public struct TryMap<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that transforms elements from the upstream publisher.
        public let transform: (Upstream.Output) throws -> Output

        /// Creates a publisher that transforms each upstream element with `transform`, failing if it throws.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
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

extension Publishers.TryMap {
    /// Fuses a try-map and a following map into one try-map.
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { transform(try first($0)) }
    }

    /// Fuses two try-maps into one.
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { try transform(try first($0)) }
    }
}

extension Publishers.TryMap {
    private struct Step: TransformOperation {
        let transform: (Upstream.Output) throws -> Output

        static var description: String { "TryMap" }

        static var conduct: TransformConduct { .passThrough(failsAfterEnd: true) }

        func step(_ input: Upstream.Output, state: inout Void) -> TransformStep<Output, any Error> {
            do {
                return .emit(try transform(input))
            } catch {
                return .fail(error)
            }
        }

        func failure(from upstreamFailure: Upstream.Failure) -> any Error { upstreamFailure }
    }
}
