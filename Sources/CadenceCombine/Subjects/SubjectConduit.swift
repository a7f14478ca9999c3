import CadenceSupport
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#endif

/// One subscriber's connection to a subject, as the subject sees it: the subject keeps a copy-on-write array of
/// these and, for each value, offers it to every conduit of a snapshot of that array taken under its lock.
///
/// The base class is not generic, so a subject's array and its loop over a snapshot need no generic metadata at run
/// time (which unspecialised generic code would look up on every send); values and completions travel as pointers
/// to the subject's `Output` and `Subscribers.Completion<Failure>`, which each subclass knows.
///
/// A value reaches a conduit through `offerer`, a function the subclass hands over when it is made, not through an
/// overridden method: a method's implementation is the one compiled in this module, unspecialised, where every call
/// down the subscriber's chain goes through a witness table; `SubjectSubscription` makes its `offerer` in inlinable
/// code, so a subscription made where the subscriber's type is known runs specialised for that type.
@usableFromInline
class SubjectConduit {
    /// Delivers the `Output` at the pointer to the conduit (the first argument) if its subscriber has outstanding
    /// demand, else drops it.
    @usableFromInline let offerer: (SubjectConduit, UnsafeRawPointer) -> Void

    @inlinable
    init(offerer: @escaping (SubjectConduit, UnsafeRawPointer) -> Void) {
        self.offerer = offerer
    }

    /// Delivers the `Subscribers.Completion<Failure>` at `completion` once and lets go of the subscriber.
    func finish(_ completion: UnsafeRawPointer) {
        requirementFailure("SubjectConduit.finish(_:) must be overridden")
    }
}

extension ContiguousArray where Element == SubjectConduit {
    /// Offers `value` to every conduit, in order.
    ///
    /// A value sent from inside a subscriber's `receive(_:)` is delivered nested in this call, so every frame between
    /// `send` and the subscriber is paid once per level of re-entrance: one closure here in a debug build, which
    /// keeps each closure as a frame of its own. An optimised build inlines the closures, and there the conduits are
    /// read from the array's buffer: the array's subscript returns each conduit retained, a retain and a release
    /// per conduit and value (`unowned(unsafe)` on the result does not remove them).
    @inlinable @inline(__always)
    func offerToEach<Output>(_ value: Output) {
        withUnsafePointer(to: value) { pointer in
            let raw = UnsafeRawPointer(pointer)
            #if DEBUG
            for index in indices {
                unowned(unsafe) let conduit = self[index]
                conduit.offerer(conduit, raw)
            }
            #else
            withUnsafeBufferPointer { conduits in
                // The array (a snapshot the caller holds) keeps every conduit alive: no retain per conduit.
                for index in conduits.indices {
                    Unmanaged.passUnretained(conduits[index])._withUnsafeGuaranteedRef { $0.offerer($0, raw) }
                }
            }
            #endif
        }
    }

    /// Finishes every conduit with `completion`, in order.
    @inline(__always)
    func finishEach<Failure: Error>(_ completion: Subscribers.Completion<Failure>) {
        withUnsafePointer(to: completion) { pointer in
            let raw = UnsafeRawPointer(pointer)
            for conduit in self {
                conduit.finish(raw)
            }
        }
    }

    /// Removes `conduit` (compared by identity) if present.
    mutating func removeConduit(_ conduit: SubjectConduit) {
        if let index = firstIndex(where: { $0 === conduit }) {
            remove(at: index)
        }
    }
}

/// What a ``SubjectSubscription`` needs from the subject that owns it.
@usableFromInline
protocol SubjectConduitParent<Output, Failure>: AnyObject {
    associatedtype Output
    associatedtype Failure: Error

    /// The subscription's `description`: the subject's name as Combine prints it.
    static var subscriptionDescription: String { get }

    /// Whether a subscriber that has not yet received a value (or missed one for lack of demand) receives the
    /// current value at its next request.
    static var replaysCurrentValue: Bool { get }

    /// The current value; only asked for when `replaysCurrentValue` is true. The subscription may hold its own lock
    /// while asking (lock order: a subscription's lock, then its subject's).
    var currentValueForReplay: Output { get }

    /// A subscriber requested values through its subscription.
    func subscriptionDidRequest()

    /// A subscriber cancelled: forget its subscription.
    func remove(_ conduit: SubjectConduit)
}

/// Holds a subscription's subscriber, so the subscription can refer to it through one plain pointer (no generic
/// metadata needed to copy it in unspecialised generic code, no reference counting per value) and drop it on
/// cancel.
@usableFromInline
final class SubjectDownstreamBox<Downstream: Subscriber> {
    @usableFromInline let downstream: Downstream

    @inlinable
    init(_ downstream: Downstream) {
        self.downstream = downstream
    }
}

/// The values of a ``SubjectSubscription``'s phase.
@usableFromInline
enum SubjectSubscriptionPhase {
    @inlinable static var active: UInt8 { 0 }
    @inlinable static var cancelled: UInt8 { 1 }
    /// The completion won: the subscriber is kept for it until it has been delivered.
    @inlinable static var completing: UInt8 { 2 }
    @inlinable static var completed: UInt8 { 3 }
}

/// One subscriber's subscription to a subject: its own demand, a strong reference to the subject while attached,
/// and a recursive delivery lock that serialises the calls into the subscriber.
///
/// The hot path takes one lock per value: demand is an atomic counter (nothing to do while it is `.unlimited`),
/// and the subscriber is reached under the delivery lock, which guards it. `cancel()` never waits for a delivery
/// in progress on another thread: it marks the subscription terminated (no value is delivered after that), detaches
/// it from the subject, and releases the subscriber at once if no delivery is running, else the delivery releases
/// it on its way out. A completion waits for a delivery in progress, and until it has been delivered no other
/// thread releases the subscriber. Nothing reaches the subscriber after its completion.
///
/// The value path (`offer`, `deliver` and what they use) is inlinable and the subscription is made in inlinable code
/// (the subjects' `receive(subscriber:)`), so where the subscriber's type is known its delivery is specialised: the
/// calls down its chain are direct, and the operators that are inlinable too run inlined into it. The rest —
/// requests, cancels, completions, replays — is compiled once, here.
@usableFromInline
final class SubjectSubscription<Parent: SubjectConduitParent, Downstream: Subscriber>:
    SubjectConduit, Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Parent.Output, Downstream.Failure == Parent.Failure {
    @usableFromInline typealias Output = Parent.Output
    @usableFromInline typealias Failure = Parent.Failure
    @usableFromInline typealias Box = SubjectDownstreamBox<Downstream>

    /// The outstanding demand, as `Subscribers.Demand.rawValue`.
    @usableFromInline let demand: Atomic<UInt>
    /// `SubjectSubscriptionPhase.active` until `cancel()` or the completion, whichever comes first, moves it on (once).
    @usableFromInline let phase: Atomic<UInt8>
    /// For subjects that replay: whether the subscriber has missed the current value (true until a first value).
    @usableFromInline let missedCurrentValue: Atomic<Bool>
    /// `Parent.replaysCurrentValue`, read once: a static protocol requirement costs a witness call per value.
    @usableFromInline let replaysCurrentValue: Bool

    // `deliveryLock` (recursive) guards `box` and `depth` and is held around every call into the downstream; the
    // box holds one retain of its own, released when it leaves. `lock` guards `parent`. Exclusivity is therefore
    // not checked at run time.
    @usableFromInline let deliveryLock: SubjectDeliveryLock
    @usableFromInline @exclusivity(unchecked) var box: Unmanaged<Box>?
    @usableFromInline @exclusivity(unchecked) var depth: Int
    @usableFromInline let lock: UnfairLock
    @usableFromInline @exclusivity(unchecked) var parent: Parent?

    @inlinable
    var isTerminated: Bool {
        phase.load(ordering: .sequentiallyConsistent) != SubjectSubscriptionPhase.active
    }

    /// Moves from `active` to `next`; false when something else ended the subscription first.
    private func terminate(as next: UInt8) -> Bool {
        phase.compareExchange(
            expected: SubjectSubscriptionPhase.active, desired: next, ordering: .sequentiallyConsistent
        ).exchanged
    }

    @inlinable
    init(parent: Parent, downstream: Downstream) {
        demand = Atomic(0)
        phase = Atomic(SubjectSubscriptionPhase.active)
        missedCurrentValue = Atomic(true)
        replaysCurrentValue = Parent.replaysCurrentValue
        deliveryLock = SubjectDeliveryLock()
        box = Unmanaged.passRetained(Box(downstream))
        depth = 0
        lock = UnfairLock()
        self.parent = parent
        // Made here, in inlinable code: where the types are known, this is the specialised `offer`.
        super.init(offerer: { conduit, value in
            unsafeDowncast(conduit, to: SubjectSubscription.self).offer(value)
        })
    }

    deinit {
        box?.release()
    }

    // MARK: Demand

    @inlinable
    func takeOneDemand() -> Bool {
        var current = demand.load(ordering: .relaxed)
        while true {
            if current == Subscribers.Demand.unlimitedRawValue { return true }
            if current == 0 { return false }
            let (exchanged, original) = demand.compareExchange(
                expected: current, desired: current - 1, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    @usableFromInline
    func addDemand(_ more: Subscribers.Demand) {
        var current = demand.load(ordering: .relaxed)
        while true {
            let next = (Subscribers.Demand(rawValue: current) + more).rawValue
            if next == current { return }
            // Sequentially consistent: a send that found no demand and then marked the value missed either sees
            // this demand afterwards or has its mark seen by the request that added it (see `offer`).
            let (exchanged, original) = demand.compareExchange(
                expected: current, desired: next, ordering: .sequentiallyConsistent)
            if exchanged { return }
            current = original
        }
    }

    // MARK: Delivery

    /// Delivers the `Output` at `value` if the subscriber has outstanding demand, else drops it (see `offerer`).
    @inlinable
    func offer(_ value: UnsafeRawPointer) {
        guard takeOneDemand() else {
            if replaysCurrentValue {
                noteMissedValue(offered: value)
            }
            return
        }
        if replaysCurrentValue, missedCurrentValue.load(ordering: .relaxed) {
            missedCurrentValue.store(false, ordering: .relaxed)
        }
        deliver(value.assumingMemoryBound(to: Output.self).pointee)
    }

    /// For subjects that replay, a value offered without demand: the then-current value goes at the next request.
    @usableFromInline
    func noteMissedValue(offered value: UnsafeRawPointer) {
        missedCurrentValue.store(true, ordering: .sequentiallyConsistent)
        // A request that added demand after the take in `offer` failed may have looked for a missed value before the
        // mark: then this value (the current one, or for `@Published` about to be) is this thread's to deliver.
        if demand.load(ordering: .sequentiallyConsistent) != 0 {
            replayMissedValue(offered: value)
        }
    }

    @inlinable
    func deliver(_ value: Output) {
        deliveryLock.lock()
        guard !isTerminated, let box else {
            deliveryLock.unlock()
            releaseBoxIfIdle()
            return
        }
        depth += 1
        #if DEBUG
        // Debug builds keep a closure as a frame of its own, and a value sent from inside `receive(_:)` is delivered
        // nested here: one reference counted call instead (the box is alive, `depth` > 0 keeps it).
        let more = box.takeUnretainedValue().downstream.receive(value)
        #else
        let more = box._withUnsafeGuaranteedRef { $0.downstream.receive(value) }
        #endif
        depth -= 1
        deliveryLock.unlock()
        if more > 0 {
            addDemand(more)
        }
        if isTerminated {
            // A cancel that came while this delivery ran could not release the subscriber itself.
            releaseBoxIfIdle()
        }
    }

    /// Releases the subscriber unless a delivery is running (on another thread, or further up this one's stack),
    /// which then does it when it ends, or a completion is on its way to it, which then does it once delivered.
    @usableFromInline
    func releaseBoxIfIdle() {
        guard deliveryLock.tryLock() else { return }
        var taken: Unmanaged<Box>?
        if depth == 0, phase.load(ordering: .sequentiallyConsistent) != SubjectSubscriptionPhase.completing {
            taken = box
            box = nil
        }
        deliveryLock.unlock()
        taken?.release()
    }

    override func finish(_ completion: UnsafeRawPointer) {
        guard terminate(as: SubjectSubscriptionPhase.completing) else { return }
        let parent = detachParent()
        deliveryLock.lock()
        if let box {
            depth += 1
            box._withUnsafeGuaranteedRef {
                $0.downstream.receive(
                    completion: completion.assumingMemoryBound(
                        to: Subscribers.Completion<Failure>.self
                    ).pointee)
            }
            depth -= 1
        }
        phase.store(SubjectSubscriptionPhase.completed, ordering: .sequentiallyConsistent)
        deliveryLock.unlock()
        releaseBoxIfIdle()
        withExtendedLifetime(parent) {}
    }

    private func detachParent() -> Parent? {
        lock.lock()
        let parent = self.parent
        self.parent = nil
        lock.unlock()
        return parent
    }

    // MARK: Subscription

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        guard demand.isPositive(in: Parent.subscriptionDescription) else { return }
        guard !isTerminated else { return }
        addDemand(demand)
        lock.lock()
        let parent = self.parent
        lock.unlock()
        guard let parent else { return }
        parent.subscriptionDidRequest()
        if replaysCurrentValue {
            replayMissedValue(offered: nil)
        }
    }

    /// For subjects that replay: if the subscriber has missed a value and has demand, delivers `offered` (the value
    /// being sent) or, when nil, the subject's current value.
    @usableFromInline
    func replayMissedValue(offered: UnsafeRawPointer?) {
        while missedCurrentValue.exchange(false, ordering: .sequentiallyConsistent) {
            if takeOneDemand() {
                if let offered {
                    deliver(offered.assumingMemoryBound(to: Output.self).pointee)
                    return
                }
                lock.lock()
                let parent = self.parent
                lock.unlock()
                if let parent {
                    deliver(parent.currentValueForReplay)
                }
                return
            }
            missedCurrentValue.store(true, ordering: .sequentiallyConsistent)
            // Demand added between the take and the mark found nothing missed: look again.
            guard demand.load(ordering: .sequentiallyConsistent) != 0 else { return }
        }
    }

    @usableFromInline
    func cancel() {
        guard terminate(as: SubjectSubscriptionPhase.cancelled) else { return }
        let parent = detachParent()
        parent?.remove(self)
        releaseBoxIfIdle()
    }

    @usableFromInline var description: String { Parent.subscriptionDescription }

    @usableFromInline var customMirror: Mirror {
        lock.lock()
        let parent = self.parent
        lock.unlock()
        deliveryLock.lock()
        let downstream = box?._withUnsafeGuaranteedRef { $0.downstream }
        deliveryLock.unlock()
        return Mirror(
            self,
            children: [
                "parent": parent as Any,
                "downstream": downstream as Any,
                "demand": Subscribers.Demand(rawValue: demand.load(ordering: .relaxed)),
                "subject": parent as Any,
            ])
    }

    @usableFromInline var playgroundDescription: Any { description }
}

/// A recursive mutex that serialises the calls into one subscriber: two threads sending to the same subject never
/// run one subscriber's `receive` at the same time, while a value sent from inside that subscriber's `receive` (on
/// the same thread) is delivered at once instead of deadlocking. It guards no state; hold it only around the call
/// into the subscriber.
@usableFromInline
final class SubjectDeliveryLock {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    @usableFromInline
    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        let result = pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        require(result == 0, "Cadence: pthread_mutex_init failed with \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inlinable @inline(__always)
    func lock() {
        _ = pthread_mutex_lock(mutex)
    }

    @inlinable @inline(__always)
    func unlock() {
        _ = pthread_mutex_unlock(mutex)
    }

    /// Takes the lock if it is free or already held by this thread.
    @inlinable @inline(__always)
    func tryLock() -> Bool {
        pthread_mutex_trylock(mutex) == 0
    }
}
