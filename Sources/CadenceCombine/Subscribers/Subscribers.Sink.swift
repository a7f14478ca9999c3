import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#endif

/// The bits of a sink's `activity`: the number of calls into the sink in progress counts in units of `call`.
@usableFromInline
enum SinkActivity {
    /// Set once, by the completion or `cancel()`: no call reaches a closure after it.
    @inlinable static var ended: UInt { 1 }
    /// Set once, by whoever releases the closures (when `ended` and no call is in progress).
    @inlinable static var released: UInt { 2 }
    @inlinable static var call: UInt { 4 }
}

/// Where a sink is in its life. Outside the generic `Sink` so that copying it needs no generic metadata.
@usableFromInline
enum SinkState {
    case awaitingSubscription
    case subscribed(any Subscription)
    case terminal
}

extension Subscribers {
    /// A simple subscriber that requests an unlimited number of values upon subscription.
    ///
    /// After it completes or is cancelled, a sink releases its closures, which breaks the usual retain cycle
    /// through an `AnyCancellable` stored by the object the closures capture. As Combine's, a sink cancelled before
    /// its subscription arrived keeps them until that subscription arrives (it is cancelled) or the sink goes; no
    /// value or completion reaches them after the cancel.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    {
        /// The two closures, immutable, so a call reaches them through one pointer without copying either.
        @usableFromInline
        final class Handlers {
            @usableFromInline let receiveValue: (Input) -> Void
            @usableFromInline let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

            @inlinable
            init(
                receiveValue: @escaping (Input) -> Void,
                receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void
            ) {
                self.receiveValue = receiveValue
                self.receiveCompletion = receiveCompletion
            }
        }

        // `stateLock` guards `state`. `activity` guards `handlers`. Neither is checked for exclusivity at run time. A
        // call reads `handlers` only after counting itself in while `ended` was clear, and it is released (written)
        // only by whoever moves `activity` from exactly `ended` to `ended | released`, once the last such call has
        // left. `stateLock` is a flag rather than a platform lock: it is held only for the few instructions that read
        // or swap `state` (never around a call out), and it is stored inline, so a sink allocates no mutex.
        @usableFromInline let stateLock: Atomic<Bool>
        @usableFromInline @exclusivity(unchecked) var state: SinkState
        @usableFromInline let activity: Atomic<UInt>
        @usableFromInline @exclusivity(unchecked) var handlers: Unmanaged<Handlers>?

        /// The closure to execute on receipt of a value (a no-op once the sink has completed or been cancelled).
        public var receiveValue: (Input) -> Void {
            defer { leave() }
            guard enter(), let handlers else { return { _ in } }
            return handlers._withUnsafeGuaranteedRef { $0.receiveValue }
        }

        /// The closure to execute on completion (a no-op once the sink has completed or been cancelled).
        public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
            defer { leave() }
            guard enter(), let handlers else { return { _ in } }
            return handlers._withUnsafeGuaranteedRef { $0.receiveCompletion }
        }

        /// Initializes a sink with the provided closures.
        @inlinable
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            stateLock = Atomic(false)
            state = .awaitingSubscription
            activity = Atomic<UInt>(0)
            handlers = Unmanaged.passRetained(
                Handlers(receiveValue: receiveValue, receiveCompletion: receiveCompletion))
        }

        deinit {
            handlers?.release()
        }

        public var description: String { "Sink" }

        public var customMirror: Mirror { Mirror(self, children: [:]) }

        public var playgroundDescription: Any { description }

        @inlinable
        public func receive(subscription: any Subscription) {
            lockState()
            guard case .awaitingSubscription = state else {
                unlockState()
                subscription.cancel()
                releaseHandlersIfIdle() // of a sink cancelled before its subscription
                return
            }
            state = .subscribed(subscription)
            unlockState()
            subscription.request(.unlimited)
        }

        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            if enter() {
                #if DEBUG
                // Debug builds keep a closure as a frame of its own, and a value sent from inside `receiveValue` is
                // delivered nested here: one reference counted call instead (the call counted in keeps the closures).
                handlers.unsafelyUnwrapped.takeUnretainedValue().receiveValue(value)
                #else
                handlers.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.receiveValue(value) }
                #endif
            }
            leave()
            return .none
        }

        @inlinable
        public func receive(completion: Subscribers.Completion<Failure>) {
            guard enter(), end() else {
                leave()
                return
            }
            let subscription = takeState()
            handlers.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.receiveCompletion(completion) }
            leave()
            withExtendedLifetime(subscription) {}
        }

        /// Cancels the subscription and releases the closures (only once the subscription arrives, when there is
        /// none yet).
        @inlinable
        public func cancel() {
            // Ended already (completed, or cancelled before): the call that ended the sink took its subscription and
            // releases its closures, so there is nothing left to do (the usual `AnyCancellable` of a finished sink).
            if activity.load(ordering: .acquiring) & SinkActivity.ended != 0 { return }
            let subscription = takeState()
            _ = end()
            // Cancelled before its subscription arrived: as Combine's, the sink keeps its closures (until it is
            // released, or the subscription arrives and is cancelled); unlike Combine's it has ended all the same.
            guard let subscription else { return }
            releaseHandlersIfIdle()
            subscription.cancel()
        }

        /// Counts a call in; true when the sink has not ended, so the call may use the closures. Pair with `leave()`.
        @inlinable @inline(__always)
        func enter() -> Bool {
            activity.wrappingAdd(SinkActivity.call, ordering: .acquiring).oldValue & SinkActivity.ended == 0
        }

        /// Counts a call out; the last one out of an ended sink releases the closures.
        @inlinable @inline(__always)
        func leave() {
            if activity.wrappingSubtract(SinkActivity.call, ordering: .releasing).newValue == SinkActivity.ended {
                releaseHandlersIfIdle()
            }
        }

        /// Takes `stateLock`, waiting (yielding the thread) while another thread holds it.
        @inlinable @inline(__always)
        func lockState() {
            if stateLock.exchange(true, ordering: .acquiring) {
                waitForStateLock()
            }
        }

        /// Releases `stateLock`.
        @inlinable @inline(__always)
        func unlockState() {
            stateLock.store(false, ordering: .releasing)
        }

        /// The contended path of `lockState()`: another thread is inside one of the short sections above.
        @usableFromInline
        func waitForStateLock() {
            while stateLock.exchange(true, ordering: .acquiring) {
                sched_yield()
            }
        }

        /// Marks the sink ended; true for the one call that did it.
        @inlinable
        func end() -> Bool {
            activity.bitwiseOr(SinkActivity.ended, ordering: .acquiringAndReleasing).oldValue & SinkActivity.ended == 0
        }

        /// Releases the closures if the sink has ended, no call is in progress and nobody released them yet. Runs
        /// with no lock held: the closures' captures may deinitialise objects that cancel this very sink.
        @inlinable
        func releaseHandlersIfIdle() {
            guard
                activity.compareExchange(
                    expected: SinkActivity.ended, desired: SinkActivity.ended | SinkActivity.released,
                    ordering: .acquiringAndReleasing
                ).exchanged
            else { return }
            let released = handlers
            handlers = nil
            released?.release()
        }

        /// Moves to `terminal`; returns the subscription, for the caller to cancel or release after the lock.
        @inlinable
        func takeState() -> (any Subscription)? {
            lockState()
            let previous = state
            state = .terminal
            unlockState()
            if case .subscribed(let subscription) = previous { return subscription }
            return nil
        }
    }
}

extension Publisher {
    /// Attaches a subscriber with closure-based behaviour, which requests an unlimited number of values.
    ///
    /// - Returns: A cancellable instance, which you use when you end assignment of the received value. Deallocation
    ///   of the result will tear down the subscription stream.
    @inlinable
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        subscribe(sink)
        return AnyCancellable(sink)
    }
}

extension Publisher where Failure == Never {
    /// Attaches a subscriber with closure-based behaviour to a publisher that never fails.
    @inlinable
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}
