import Synchronization

/// A type-erasing cancellable object that executes a provided closure when canceled.
///
/// An `AnyCancellable` instance automatically calls `cancel()` when deinitialized. The closure runs at most once,
/// even when `cancel()` is called from several threads at the same time.
public final class AnyCancellable: Cancellable, Hashable {
    // `isCancelled` guards `cancellation`: only the one call that flips it to true touches the closure again, to
    // take it out. No lock to allocate, and no run-time exclusivity check.
    @usableFromInline let isCancelled: Atomic<Bool>
    @usableFromInline @exclusivity(unchecked) var cancellation: (() -> Void)?

    /// Initializes the cancellable object with the given cancel-time closure.
    @inlinable
    public init(_ cancel: @escaping () -> Void) {
        isCancelled = Atomic(false)
        cancellation = cancel
    }

    /// Initializes the cancellable object with another cancellable, which it cancels when it is cancelled.
    @inlinable
    public init<C: Cancellable>(_ canceller: C) {
        // A metatype comparison rather than `as?`: no dynamic cast for the usual case of a concrete subscriber.
        if C.self == AnyCancellable.self {
            let erased = canceller as! AnyCancellable
            cancellation = { erased.cancel() }
        } else {
            cancellation = canceller.cancel
        }
        isCancelled = Atomic(false)
    }

    deinit {
        cancel()
    }

    /// Cancels the activity: runs the cancel-time closure once and releases it.
    public func cancel() {
        guard !isCancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let action = cancellation.take()
        action?()
    }

    /// Stores this type-erasing cancellable instance in the specified collection.
    public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        collection.append(self)
    }

    /// Stores this type-erasing cancellable instance in the specified set.
    public func store(in set: inout Set<AnyCancellable>) {
        set.insert(self)
    }

    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool {
        lhs === rhs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

