#if canImport(os)
import os
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#endif

#if canImport(os)
@usableFromInline package typealias PlatformLock = os_unfair_lock
#else
@usableFromInline package typealias PlatformLock = pthread_mutex_t
#endif

/// Heap storage for one platform lock and the state it guards; a class so the lock has a stable address.
@usableFromInline
package final class LockStorage<State>: ManagedBuffer<State, PlatformLock> {
    @inlinable
    package static func make(_ initial: State) -> LockStorage<State> {
        let buffer = Self.create(minimumCapacity: 1) { _ in initial }
        let storage = unsafeDowncast(buffer, to: LockStorage<State>.self)
        storage.withUnsafeMutablePointerToElements { lock in
            #if canImport(os)
            lock.initialize(to: os_unfair_lock())
            #else
            lock.initialize(to: pthread_mutex_t())
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_NORMAL))
            let result = pthread_mutex_init(lock, &attributes)
            pthread_mutexattr_destroy(&attributes)
            require(result == 0, "Cadence: pthread_mutex_init failed with \(result)")
            #endif
        }
        return storage
    }

    deinit {
        withUnsafeMutablePointerToElements { lock in
            #if !canImport(os)
            pthread_mutex_destroy(lock)
            #endif
            lock.deinitialize(count: 1)
        }
    }

    @inlinable
    package func lock() {
        withUnsafeMutablePointerToElements { lock in
            #if canImport(os)
            os_unfair_lock_lock(lock)
            #else
            _ = pthread_mutex_lock(lock)
            #endif
        }
    }

    @inlinable
    package func unlock() {
        withUnsafeMutablePointerToElements { lock in
            #if canImport(os)
            os_unfair_lock_unlock(lock)
            #else
            _ = pthread_mutex_unlock(lock)
            #endif
        }
    }
}
