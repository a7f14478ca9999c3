import CadenceSupport
import Synchronization

extension Publishers {
    /// A publisher that publishes a given sequence of elements.
    ///
    /// It delivers exactly as many elements as the subscriber requests. Like Combine's, it reads one element ahead,
    /// so it finishes right after the last element goes out, without waiting for another request, and an empty
    /// sequence finishes as soon as a subscriber attaches. Under `.unlimited` demand it runs a tight loop.
    ///
    /// ```swift
    /// [1, 2, 3].publisher.sink { print($0) } // 1, 2, 3
    /// ```
    public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
        public typealias Output = Elements.Element

        /// The sequence of elements to publish.
        public let sequence: Elements

        /// Advances an iterator of `Elements`. It is made where the publisher is made, usually in code that knows
        /// the concrete sequence type, so iterating calls specialized code even when the subscription itself runs
        /// generically (behind `AnyPublisher`, for instance).
        @usableFromInline let advance: (inout Elements.Iterator) -> Elements.Element?

        /// Creates a publisher for a sequence of elements.
        @inlinable
        public init(sequence: Elements) {
            self.sequence = sequence
            self.advance = { $0.next() }
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            var iterator = sequence.makeIterator()
            guard let first = advance(&iterator) else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
                return
            }
            subscriber.receive(
                subscription: SequenceSubscription(
                    sequence: sequence, iterator: iterator, advance: advance, first: first, downstream: subscriber,
                    completion: .finished, isRecord: false))
        }
    }
}

extension Publishers.Sequence: Equatable where Elements: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.sequence == rhs.sequence
    }
}

extension Sequence {
    /// A publisher that emits the elements of this sequence, then finishes.
    @inlinable
    public var publisher: Publishers.Sequence<Self, Never> {
        Publishers.Sequence(sequence: self)
    }
}

/// Emits the elements of a sequence as the downstream requests them.
///
/// One thread at a time "emits": the one whose `request(_:)` found nobody emitting. It owns the iterator and takes the
/// pending demand out of the lock in one go, then delivers without the lock; a request made meanwhile (re-entrantly
/// from `receive(_:)` or from another thread) only adds to the pending demand, which the emitter collects when its
/// own runs out. Under `.unlimited` demand the loop takes no lock at all, only an atomic load per element to notice a
/// cancellation. Like Combine's, this subscription ignores a request for `.none` rather than trapping.
///
/// `Record` replays its recording through the same subscription, ending with the recorded completion.
final class SequenceSubscription<Elements: Sequence, Downstream: Subscriber>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Elements.Element {
    // `lock` guards `sequence`, `downstream`, `pendingDemand` and `isEmitting`.
    private let lock = UnfairLock()
    private var sequence: Elements?
    private var downstream: Downstream?
    private var pendingDemand = Subscribers.Demand.none
    private var isEmitting = false

    /// Set once on cancellation or completion; read by the emitter before each element.
    private let isTerminated = Atomic<Bool>(false)

    // Owned by whichever thread is emitting (the `isEmitting` hand-over through the lock orders their accesses).
    private var iterator: Elements.Iterator
    private var upcoming: Elements.Element?
    private let advance: (inout Elements.Iterator) -> Elements.Element?

    private let completion: Subscribers.Completion<Downstream.Failure>
    /// Whether this replays a `Record`: it changes what the subscription shows in a debugger.
    private let isRecord: Bool

    init(
        sequence: Elements,
        iterator: Elements.Iterator,
        advance: @escaping (inout Elements.Iterator) -> Elements.Element?,
        first: Elements.Element,
        downstream: Downstream,
        completion: Subscribers.Completion<Downstream.Failure>,
        isRecord: Bool
    ) {
        self.completion = completion
        self.isRecord = isRecord
        self.sequence = sequence
        self.iterator = iterator
        self.advance = advance
        self.upcoming = first
        self.downstream = downstream
    }

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        guard let downstream, demand > 0 else {
            lock.unlock()
            return
        }
        if isEmitting {
            pendingDemand += demand
            lock.unlock()
            return
        }
        isEmitting = true
        let granted = pendingDemand + demand
        pendingDemand = .none
        lock.unlock()
        emit(to: downstream, granted: granted)
    }

    private func emit(to downstream: Downstream, granted: Subscribers.Demand) {
        var demand = granted
        while true {
            if demand == .unlimited {
                emitAll(to: downstream)
                return
            }
            while demand > 0 {
                guard !isTerminated.load(ordering: .relaxed), let current = upcoming else { return }
                upcoming = advance(&iterator)
                demand -= 1
                demand += downstream.receive(current)
                if upcoming == nil {
                    finish()
                    return
                }
                if demand == .unlimited {
                    emitAll(to: downstream)
                    return
                }
            }
            lock.lock()
            if self.downstream == nil || pendingDemand == .none {
                isEmitting = false
                lock.unlock()
                return
            }
            demand = pendingDemand
            pendingDemand = .none
            lock.unlock()
        }
    }

    /// The `.unlimited` loop: no lock, no demand arithmetic and no read-ahead per element.
    private func emitAll(to downstream: Downstream) {
        guard !isTerminated.load(ordering: .relaxed), let first = upcoming.take() else { return }
        _ = downstream.receive(first)
        // Work on a local copy: a class property costs an exclusivity check on every access.
        var iterator = self.iterator
        let advance = self.advance
        while !isTerminated.load(ordering: .relaxed), let current = advance(&iterator) {
            _ = downstream.receive(current)
        }
        finish()
    }

    private func finish() {
        lock.lock()
        guard let downstream else {
            lock.unlock()
            return
        }
        isTerminated.store(true, ordering: .relaxed)
        let sequence = self.sequence
        self.downstream = nil
        self.sequence = nil
        lock.unlock()
        downstream.receive(completion: completion)
        withExtendedLifetime(sequence) {} // released here, outside the lock
    }

    func cancel() {
        lock.lock()
        isTerminated.store(true, ordering: .relaxed)
        let released = (downstream, sequence)
        downstream = nil
        sequence = nil
        lock.unlock()
        withExtendedLifetime(released) {} // released here, outside the lock
    }

    var description: String {
        lock.lock()
        let sequence = self.sequence
        lock.unlock()
        return sequence.map { String(describing: $0) } ?? (isRecord ? "Cancelled Events" : "Sequence")
    }

    var customMirror: Mirror {
        lock.lock()
        let sequence = self.sequence
        lock.unlock()
        let shown = sequence.map { $0 as Any } ?? [Elements.Element]()
        if isRecord {
            return Mirror(self, children: ["sequence": shown, "completion": completion])
        }
        return Mirror(self, children: ["sequence": shown])
    }

    var playgroundDescription: Any { description }
}
