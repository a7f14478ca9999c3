extension Publisher {
    /// Raises a fatal error when its upstream publisher fails, and otherwise republishes all received input.
    ///
    /// ```swift
    /// publisher.assertNoFailure("loading").sink { print($0) }
    /// ```
    /// traps, when the upstream fails with an error `offline`, with
    /// ```text
    /// Screen.swift:12: Fatal error: loading: offline
    /// ```
    ///
    /// - Parameters:
    ///   - prefix: A string used at the beginning of the fatal error message, followed by a colon when not empty.
    ///   - file: A filename used in the error message. This defaults to `#file`.
    ///   - line: A line number used in the error message. This defaults to `#line`.
    /// - Returns: A publisher that raises a fatal error when its upstream publisher fails.
    public func assertNoFailure(
        _ prefix: String = "",
        file: StaticString = #file,
        line: UInt = #line
    ) -> Publishers.AssertNoFailure<Self> {
        Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
    }
}

extension Publishers {
    /// A publisher that raises a fatal error upon receiving any failure, and otherwise republishes all received input.
    ///
    /// It keeps no state: the upstream's subscription goes straight to the subscriber, so demand and cancellation
    /// pass through untouched.
    public struct AssertNoFailure<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Never

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The string used at the beginning of the fatal error message.
        public let prefix: String

        /// The filename used in the error message.
        public let file: StaticString

        /// The line number used in the error message.
        public let line: UInt

        /// Creates a publisher that raises a fatal error upon receiving any failure, and otherwise republishes all
        /// received input.
        public init(upstream: Upstream, prefix: String, file: StaticString, line: UInt) {
            self.upstream = upstream
            self.prefix = prefix
            self.file = file
            self.line = line
        }

        /// Attaches the subscriber to the upstream through this operator.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            upstream.subscribe(Inner(downstream: subscriber, prefix: prefix, file: file, line: line))
        }
    }
}

extension Publishers.AssertNoFailure {
    private struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Never {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        let downstream: Downstream
        let prefix: String
        let file: StaticString
        let line: UInt
        let combineIdentifier = CombineIdentifier()

        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            downstream.receive(input)
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            switch completion {
            case .finished:
                downstream.receive(completion: .finished)
            case .failure(let error):
                let start = prefix.isEmpty ? "" : prefix + ": "
                fatalError(start + String(describing: error), file: file, line: line)
            }
        }

        var description: String { "AssertNoFailure" }

        var customMirror: Mirror {
            Mirror(self, children: ["file": file, "line": line, "prefix": prefix])
        }

        var playgroundDescription: Any { description }
    }
}
