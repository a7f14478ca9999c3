import Synchronization

/// The token that serialises delivery to the downstream of a multi-upstream operator (`BufferedDelivery`'s, for merge
/// and flatMap; `TupleCombiningInner`'s, for zip and combineLatest). It is an atomic, not a lock-guarded flag, so
/// that the thread that has delivered a value straight through can give the token back without taking the lock
/// again, when nobody left it anything to do meanwhile: one lock acquisition per value in the common, uncontended
/// case.
///
/// Every other operation runs under the owner's lock. A thread that changes what the holder must act on (buffers a
/// value, adds demand, leaves a completion) marks the token (`leaveWorkIfHeld()`), so the holder takes the lock again
/// before it lets go; if the holder let go first, the thread finds the token free and does the work itself.
final class DeliveryToken: Sendable {
    private static let free = 0
    private static let held = 1
    private static let heldWithWork = 2

    private let state: Atomic<Int>

    /// A free token, or one held by the thread that creates it.
    init(held: Bool = false) {
        state = Atomic(held ? DeliveryToken.held : DeliveryToken.free)
    }

    /// Whether a thread holds the token.
    var isHeld: Bool { state.load(ordering: .acquiring) != Self.free }

    /// Takes the token if it is free; when another thread holds it, leaves it work to do and returns `false`. Under
    /// the owner's lock.
    func take() -> Bool {
        var expected = Self.free
        while true {
            let (exchanged, original) = state.compareExchange(
                expected: expected, desired: expected == Self.free ? Self.held : Self.heldWithWork,
                ordering: .acquiringAndReleasing)
            if exchanged {
                return expected == Self.free
            }
            if original == Self.heldWithWork {
                return false
            }
            expected = original
        }
    }

    /// When a thread holds the token, makes sure it takes the lock again before it lets go, and returns `true`;
    /// returns `false` when the token is free. Under the owner's lock.
    func leaveWorkIfHeld() -> Bool {
        var expected = Self.held
        while true {
            let (exchanged, original) = state.compareExchange(
                expected: expected, desired: Self.heldWithWork, ordering: .acquiringAndReleasing)
            if exchanged || original == Self.heldWithWork {
                return true
            }
            if original == Self.free {
                return false
            }
            expected = original
        }
    }

    /// The holder, having taken the lock again: what was left to it will be seen now. Under the owner's lock.
    func clearWork() {
        state.store(Self.held, ordering: .releasing)
    }

    /// The holder gives the token back. Under the owner's lock.
    func release() {
        state.store(Self.free, ordering: .releasing)
    }

    /// The holder gives the token back without the lock, unless it has been left work: then it returns `false` and
    /// must take the lock and drain.
    func releaseIfNothingLeft() -> Bool {
        state.compareExchange(expected: Self.held, desired: Self.free, ordering: .acquiringAndReleasing).exchanged
    }
}

