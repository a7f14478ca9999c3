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
