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

/// A value guarded by a lock: the one lock type of the package, for every module of it.
///
/// Never call user code (a subscriber, a closure passed to an operator) inside `withLock`: take what you need out of
/// the state, leave the lock, then call out.
///
/// The same holds for releasing: a value whose `deinit` may run user code is taken out into a local under the lock
/// and released after it with `withExtendedLifetime(local) {}`. `_ = local` is no use of the local: in optimised
/// builds the copy is then removed, and the value is destroyed where the property is cleared, under the lock.
@usableFromInline
package struct Locked<State>: @unchecked Sendable { // the platform lock in `storage` guards every access to the state
    @usableFromInline package let storage: LockStorage<State>

    @inlinable
    package init(_ initial: State) {
        storage = LockStorage.make(initial)
    }

    @inlinable
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        storage.lock()
        defer { storage.unlock() }
        return try storage.withUnsafeMutablePointerToHeader { try body(&$0.pointee) }
    }

    /// Takes the lock without touching the state; pair with `unlock()`. For classes whose stored properties the lock
    /// guards directly.
    @inlinable
    package func lock() { storage.lock() }

    @inlinable
    package func unlock() { storage.unlock() }
}

extension Locked where State == Void {
    @inlinable
    package init() { self.init(()) }
}

/// A lock that guards the stored properties of the class that owns it.
@usableFromInline
package typealias UnfairLock = Locked<Void>
