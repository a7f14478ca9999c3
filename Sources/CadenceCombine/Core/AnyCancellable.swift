import Synchronization

/// A type-erasing cancellable object that executes a provided closure when canceled.
///
/// An `AnyCancellable` instance automatically calls `cancel()` when deinitialized. The closure runs at most once,
/// even when `cancel()` is called from several threads at the same time.
public final class AnyCancellable: Cancellable, Hashable {
    /// What cancelling does: run a closure, or cancel a cancellable kept as it is. Keeping a subscriber itself,
    /// rather than a closure that calls its `cancel()`, allocates nothing for the usual case of a class.
    @usableFromInline
    enum Action {
        case run(() -> Void)
        case cancel(any Cancellable)
        case none
    }

    // `isCancelled` guards `action`: only the one call that flips it to true touches the action again, to take it
    // out. No lock to allocate, and no run-time exclusivity check.
    @usableFromInline let isCancelled: Atomic<Bool>
    @usableFromInline @exclusivity(unchecked) var action: Action

    /// Initializes the cancellable object with the given cancel-time closure.
    @inlinable
    public init(_ cancel: @escaping () -> Void) {
        isCancelled = Atomic(false)
        action = .run(cancel)
    }

    /// Initializes the cancellable object with another cancellable, which it cancels when it is cancelled.
    @inlinable
    public init<C: Cancellable>(_ canceller: C) {
        isCancelled = Atomic(false)
        action = .cancel(canceller)
    }

    deinit {
        cancel()
    }

    /// Cancels the activity: runs the cancel-time action once and releases it.
    public func cancel() {
        guard !isCancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var taken = Action.none
        swap(&taken, &action)
        switch consume taken {
        case .run(let closure): closure()
        case .cancel(let canceller): canceller.cancel()
        case .none: break
        }
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
