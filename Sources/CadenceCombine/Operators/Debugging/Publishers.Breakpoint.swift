import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#endif

extension Publisher {
    /// Raises a debugger signal when a provided closure needs to stop the process in the debugger.
    ///
    /// When any of the closures returns `true`, this publisher raises `SIGTRAP`, which stops the process in a
    /// debugger (and, with no debugger attached, ends it).
    ///
    /// - Parameters:
    ///   - receiveSubscription: Executes when the publisher receives a subscription.
    ///   - receiveOutput: Executes when the publisher receives a value from the upstream publisher.
    ///   - receiveCompletion: Executes when the publisher receives a completion.
    /// - Returns: A publisher that raises a debugger signal when one of the provided closures returns `true`.
    public func breakpoint(
        receiveSubscription: ((any Subscription) -> Bool)? = nil,
        receiveOutput: ((Output) -> Bool)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
    ) -> Publishers.Breakpoint<Self> {
        Publishers.Breakpoint(
            upstream: self,
            receiveSubscription: receiveSubscription,
            receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion)
    }

    /// Raises a debugger signal upon receiving a failure.
    ///
    /// - Returns: A publisher that raises a debugger signal upon receiving a failure.
    public func breakpointOnError() -> Publishers.Breakpoint<Self> {
        breakpoint(receiveCompletion: { completion in
            if case .failure = completion { return true }
            return false
        })
    }
}

extension Publishers {
    /// A publisher that raises a debugger signal when a provided closure needs to stop the process in the debugger.
    ///
    /// It keeps no state: the upstream's subscription goes straight to the subscriber, so demand and cancellation
    /// pass through untouched. Each closure runs before the event goes on.
    public struct Breakpoint<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that executes when the publisher receives a subscription, and can raise a debugger signal by
        /// returning `true`.
        public let receiveSubscription: ((any Subscription) -> Bool)?

        /// A closure that executes when the publisher receives output from the upstream publisher, and can raise a
        /// debugger signal by returning `true`.
        public let receiveOutput: ((Upstream.Output) -> Bool)?

        /// A closure that executes when the publisher receives completion, and can raise a debugger signal by
        /// returning `true`.
        public let receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)?

        /// Creates a breakpoint publisher with the provided upstream publisher and breakpoint-raising closures.
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Bool)? = nil,
            receiveOutput: ((Upstream.Output) -> Bool)? = nil,
            receiveCompletion: ((Subscribers.Completion<Publishers.Breakpoint<Upstream>.Failure>) -> Bool)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
        }

        /// Attaches the subscriber to the upstream through this operator.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, breakpoint: self))
        }
    }
}

extension Publishers.Breakpoint {
    private struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        let downstream: Downstream
        let breakpoint: Publishers.Breakpoint<Upstream>
        let combineIdentifier = CombineIdentifier()

        func receive(subscription: any Subscription) {
            if breakpoint.receiveSubscription?(subscription) == true {
                stopInDebugger()
            }
            downstream.receive(subscription: subscription)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            if breakpoint.receiveOutput?(input) == true {
                stopInDebugger()
            }
            return downstream.receive(input)
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            if breakpoint.receiveCompletion?(completion) == true {
                stopInDebugger()
            }
            downstream.receive(completion: completion)
        }

        private func stopInDebugger() {
            raise(SIGTRAP)
            // Still running: a debugger stopped the process and let it go on, or a handler caught the signal and
            // returned — the Swift runtime's backtracer does, after printing its report. With no debugger attached,
            // the process ends as the signal's default action would end it.
            guard !isDebuggerAttached() else { return }
            signal(SIGTRAP, SIG_DFL)
            raise(SIGTRAP)
        }

        /// Whether a debugger traces the process (Linux's `/proc/self/status` names its tracer).
        private func isDebuggerAttached() -> Bool {
            guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return false }
            let tracer = status.split(separator: "\n").first { $0.hasPrefix("TracerPid:") }
            return tracer.map { $0.dropFirst("TracerPid:".count).trimmingCharacters(in: .whitespaces) != "0" } ?? false
        }

        var description: String { "Breakpoint" }

        var customMirror: Mirror { Mirror(self, children: [:]) }

        var playgroundDescription: Any { description }
    }
}
