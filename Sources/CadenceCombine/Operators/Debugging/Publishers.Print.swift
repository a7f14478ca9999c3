import CadenceSupport

extension Publisher {
    /// Prints log messages for all publishing events.
    ///
    /// ```swift
    /// [1, 2].publisher.print("numbers").sink { _ in }
    /// ```
    /// prints
    /// ```text
    /// numbers: receive subscription: ([1, 2])
    /// numbers: request unlimited
    /// numbers: receive value: (1)
    /// numbers: receive value: (2)
    /// numbers: receive finished
    /// ```
    ///
    /// - Parameters:
    ///   - prefix: A string, followed by a colon, with which to prefix every message; none when empty.
    ///   - stream: A stream for text output that receives messages; standard output when `nil`.
    /// - Returns: A publisher that prints log messages for all publishing events.
    public func print(_ prefix: String = "", to stream: (any TextOutputStream)? = nil) -> Publishers.Print<Self> {
        Publishers.Print(upstream: self, prefix: prefix, to: stream)
    }
}

extension Publishers {
    /// A publisher that prints log messages for all publishing events, optionally prefixed with a given string.
    ///
    /// Demand passes through unchanged. Each line is written with `Swift.print(_:to:)`; a demand the subscriber
    /// returns for a value is logged with `(synchronous)` when it is more than zero. Every line gets its own copy of
    /// the stream, so a class stream sees them all, and the operator keeps no stream state between lines. As in
    /// Combine, the operator checks nothing itself: it logs and passes on every event, even one that comes after the
    /// completion or before the subscription.
    public struct Print<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// A string with which to prefix all log messages.
        public let prefix: String

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The stream that receives the messages; standard output when `nil`.
        public let stream: (any TextOutputStream)?

        /// Creates a publisher that prints log messages for all publishing events.
        public init(upstream: Upstream, prefix: String, to stream: (any TextOutputStream)? = nil) {
            self.upstream = upstream
            self.prefix = prefix
            self.stream = stream
        }

        /// Attaches the subscriber to the upstream through this operator.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, prefix: prefix, stream: stream))
        }
    }
}

extension Publishers.Print {
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        /// Forwards to the user's stream, so `Swift.print(_:to:)` can take it `inout`.
        private struct Target: TextOutputStream {
            var base: any TextOutputStream

            mutating func write(_ string: String) {
                base.write(string)
            }
        }

        private enum Status {
            case awaitingSubscription
            case subscribed(any Subscription)
            case terminal
        }

        private let linePrefix: String
        private let stream: (any TextOutputStream)?
        // Like Combine's, the subscription is transparent: it passes every event on, whatever came before it, and
        // keeps its downstream for as long as it lives. `lock` guards `status`, which only decides whether a request
        // or a cancel reaches the upstream.
        private let downstream: Downstream
        private let lock = UnfairLock()
        private var status = Status.awaitingSubscription

        init(downstream: Downstream, prefix: String, stream: (any TextOutputStream)?) {
            self.downstream = downstream
            linePrefix = prefix.isEmpty ? "" : prefix + ": "
            self.stream = stream
        }

        func receive(subscription: any Subscription) {
            log("receive subscription: (\(subscription))")
            lock.lock()
            guard case .awaitingSubscription = status else {
                lock.unlock()
                subscription.cancel()
                return
            }
            status = .subscribed(subscription)
            lock.unlock()
            downstream.receive(subscription: self)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            log("receive value: (\(input))")
            let demand = downstream.receive(input)
            if let max = demand.max {
                if max > 0 {
                    log("request max: (\(max)) (synchronous)")
                }
            } else {
                log("request unlimited (synchronous)")
            }
            return demand
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            switch completion {
            case .finished:
                log("receive finished")
            case .failure(let error):
                log("receive error: (\(error))")
            }
            lock.lock()
            status = .terminal
            lock.unlock()
            downstream.receive(completion: completion)
        }

        func request(_ demand: Subscribers.Demand) {
            if let max = demand.max {
                log("request max: (\(max))")
            } else {
                log("request unlimited")
            }
            lock.lock()
            guard case .subscribed(let upstream) = status else {
                lock.unlock()
                return
            }
            lock.unlock()
            upstream.request(demand)
        }

        func cancel() {
            log("receive cancel")
            lock.lock()
            guard case .subscribed(let upstream) = status else {
                lock.unlock()
                return
            }
            status = .terminal
            lock.unlock()
            upstream.cancel()
        }

        private func log(_ message: String) {
            if let stream {
                var target = Target(base: stream)
                Swift.print(linePrefix + message, to: &target)
            } else {
                Swift.print(linePrefix + message)
            }
        }

        var description: String { "Print" }

        var customMirror: Mirror { Mirror(self, children: [:]) }

        var playgroundDescription: Any { description }
    }
}
