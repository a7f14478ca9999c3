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
