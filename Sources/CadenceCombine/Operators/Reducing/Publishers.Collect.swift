extension Publishers {
    /// A publisher that buffers items.
    ///
    /// It requests `.unlimited` from the upstream, appends each element to an array without taking a lock, and
    /// delivers the array when the upstream finishes, once the downstream has requested a value. An upstream failure
    /// is forwarded and the collected elements are dropped.
    public struct Collect<Upstream: Publisher>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that collects every element of `upstream` into one array.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let strategy = CollectStrategy<[Upstream.Output], Failure>()
            upstream.subscribe(ReducingSubscription(strategy: strategy, body: (), downstream: subscriber))
        }
    }
}

extension Publishers.Collect: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Collects all received elements, and emits a single array of the collection when the upstream publisher
    /// finishes.
    ///
    /// If the upstream publisher fails with an error, this publisher forwards the error to the downstream receiver
    /// instead of sending its output. This publisher requires unbounded memory to store the received values.
    ///
    /// ```swift
    /// (0..<3).publisher.collect().sink { print($0) } // Prints "[0, 1, 2]"
    /// ```
    ///
    /// - Returns: A publisher that collects all received items and returns them as an array upon completion.
    public func collect() -> Publishers.Collect<Self> {
        Publishers.Collect(upstream: self)
    }
}

/// Appends every value to an array.
///
/// Generic over the array type itself (always `[Input]`) rather than its element: the strategy runs unspecialised
/// behind type-erased publishers, and there an `append` to a stored `[Input]` looks the metadata of `Array<Input>` up
/// at run time for every value, while `Elements` comes with the strategy's own metadata.
private struct CollectStrategy<Elements: RangeReplaceableCollection, Failure: Error>: ReducingStrategy {
    typealias Input = Elements.Element
    typealias UpstreamFailure = Failure
    typealias Output = Elements

    var elements = Elements()

    static var name: String { "Collect" }

    mutating func reduce(_ input: Input, using body: Void) -> ReducingStep<Failure> {
        elements.append(input)
        return .continue
    }

    static var alwaysContinues: Bool { true }

    mutating func accumulate(_ input: Input) {
        elements.append(input)
    }

    var partialResult: Output? { elements }

    var initialResult: Output? { Elements() }

    /// Combine's mirror of `collect()` shows only how many elements it holds.
    var reflectedChildren: [Mirror.Child] { [("count", elements.count)] }

    static var reflectsOnlyItsOwnChildren: Bool { true }

    mutating func takeResult() -> Output? {
        defer { elements = Elements() }
        return elements
    }
}
