#if !canImport(Combine)
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
/// Subclasses (one per subject, generic over the downstream) override both methods.
class SubjectConduit<Output, Failure: Error> {
    /// Delivers `value` if the subscriber has outstanding demand, else drops it.
    func offer(_ value: Output) {
        preconditionFailure("SubjectConduit.offer(_:) must be overridden")
    }

    /// Delivers `completion` once and lets go of the subscriber.
    func finish(_ completion: Subscribers.Completion<Failure>) {
        preconditionFailure("SubjectConduit.finish(_:) must be overridden")
    }
}

/// What a ``SubjectSubscription`` needs from the subject that owns it.
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
    func remove(_ conduit: SubjectConduit<Output, Failure>)
}

/// One subscriber's subscription to a subject: its own demand, a strong reference to the subject while attached,
/// and a delivery lock that serialises the calls into the subscriber.
///
/// A value is offered under the subscription's small lock (demand checked and taken), then delivered under the
/// delivery lock alone. Nothing reaches the subscriber after its completion; a `cancel()` stops every later value
/// and releases the subscriber and the subject.
final class SubjectSubscription<Parent: SubjectConduitParent, Downstream: Subscriber>:
    SubjectConduit<Parent.Output, Parent.Failure>, Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
where Downstream.Input == Parent.Output, Downstream.Failure == Parent.Failure {
    typealias Output = Parent.Output
    typealias Failure = Parent.Failure

    // `lock` guards `parent`, `downstream`, `demand` and `deliveredCurrentValue`; `deliveryLock` guards `completed`
    // and is held around every call into the downstream.
    private let lock = UnfairLock()
    private let deliveryLock = SubjectDeliveryLock()
    private var parent: Parent?
    private var downstream: Downstream?
    private var demand = Subscribers.Demand.none
    private var deliveredCurrentValue = false
    private var completed = false

    init(parent: Parent, downstream: Downstream) {
        self.parent = parent
        self.downstream = downstream
    }

    override func offer(_ value: Output) {
        lock.lock()
        guard demand > 0, let downstream else {
            // Missed: a subject that replays gives the then-current value at the next request.
            deliveredCurrentValue = false
            lock.unlock()
            return
        }
        demand -= 1
        deliveredCurrentValue = true
        lock.unlock()
        deliver(value, to: downstream)
    }

    private func deliver(_ value: Output, to downstream: Downstream) {
        deliveryLock.lock()
        guard !completed else {
            deliveryLock.unlock()
            return
        }
        let more = downstream.receive(value)
        deliveryLock.unlock()
        if more > 0 {
            lock.lock()
            demand += more
            lock.unlock()
        }
    }

    override func finish(_ completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard let downstream else {
            lock.unlock()
            return
        }
        self.downstream = nil
        let parent = self.parent
        self.parent = nil
        lock.unlock()
        deliveryLock.lock()
        completed = true
        downstream.receive(completion: completion)
        deliveryLock.unlock()
        withExtendedLifetime(parent) {}
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertPositive(in: Parent.subscriptionDescription)
        lock.lock()
        guard let downstream, let parent else {
            lock.unlock()
            return
        }
        self.demand += demand
        guard Parent.replaysCurrentValue, !deliveredCurrentValue else {
            lock.unlock()
            parent.subscriptionDidRequest()
            return
        }
        let current = parent.currentValueForReplay
        deliveredCurrentValue = true
        self.demand -= 1
        lock.unlock()
        parent.subscriptionDidRequest()
        deliver(current, to: downstream)
    }

    func cancel() {
        lock.lock()
        guard let downstream else {
            lock.unlock()
            return
        }
        self.downstream = nil
        let parent = self.parent
        self.parent = nil
        lock.unlock()
        parent?.remove(self)
        withExtendedLifetime(downstream) {}
    }

    var description: String { Parent.subscriptionDescription }

    var customMirror: Mirror {
        lock.lock()
        defer { lock.unlock() }
        return Mirror(
            self,
            children: [
                "parent": parent as Any,
                "downstream": downstream as Any,
                "demand": demand,
                "subject": parent as Any,
            ])
    }

    var playgroundDescription: Any { description }
}

/// A recursive mutex that serialises the calls into one subscriber: two threads sending to the same subject never
/// run one subscriber's `receive` at the same time, while a value sent from inside that subscriber's `receive` (on
/// the same thread) is delivered at once instead of deadlocking. It guards no state; hold it only around the call
/// into the subscriber.
final class SubjectDeliveryLock {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        let result = pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        precondition(result == 0, "Cadence: pthread_mutex_init failed with \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inline(__always)
    func lock() {
        _ = pthread_mutex_lock(mutex)
    }

    @inline(__always)
    func unlock() {
        _ = pthread_mutex_unlock(mutex)
    }
}

#endif
