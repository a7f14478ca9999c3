#if !canImport(Combine)

/// A type-erasing cancellable object that executes a provided closure when canceled.
///
/// An `AnyCancellable` instance automatically calls `cancel()` when deinitialized. The closure runs at most once,
/// even when `cancel()` is called from several threads at the same time.
public final class AnyCancellable: Cancellable, Hashable {
    @usableFromInline let cancellation: Locked<(() -> Void)?>

    /// Initializes the cancellable object with the given cancel-time closure.
    @inlinable
    public init(_ cancel: @escaping () -> Void) {
        cancellation = Locked(cancel)
    }

    /// Initializes the cancellable object with another cancellable, which it cancels when it is cancelled.
    @inlinable
    public init<C: Cancellable>(_ canceller: C) {
        // A metatype comparison rather than `as?`: no dynamic cast for the usual case of a concrete subscriber.
        if C.self == AnyCancellable.self {
            let erased = canceller as! AnyCancellable
            cancellation = Locked { erased.cancel() }
        } else {
            cancellation = Locked(canceller.cancel)
        }
    }

    deinit {
        cancel()
    }

    /// Cancels the activity: runs the cancel-time closure once and releases it.
    public func cancel() {
        let action = cancellation.withLock { action -> (() -> Void)? in
            defer { action = nil }
            return action
        }
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

#endif
