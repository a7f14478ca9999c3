import CadenceSupport
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
    /// Set for an owner that delivers a value from inside the downstream's call at once, nested, as Combine's
    /// flatMap does: the thread that took the token, while it may call the downstream; 0 otherwise.
    let nestsReentrantValues: Bool
    private let nestingThread = Atomic<UInt>(0)

    /// A free token, or one held by the thread that creates it. With `nestsReentrantValues`, the token remembers
    /// which thread took it, so that a value that arrives on that thread while it delivers can go out nested.
    init(held: Bool = false, nestsReentrantValues: Bool = false) {
        state = Atomic(held ? DeliveryToken.held : DeliveryToken.free)
        self.nestsReentrantValues = nestsReentrantValues
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

    /// Whether the calling thread holds the token and may deliver a value nested in its current call to the
    /// downstream. Under the owner's lock, where every successful `take()` records its thread first: the number read
    /// is the holder's, or 0, never the caller's unless the caller holds the token.
    var isHeldForNestingByCurrentThread: Bool {
        nestsReentrantValues && isHeld && nestingThread.load(ordering: .relaxed) == currentThreadNumber()
    }

    /// Records the calling thread as the holder that may nest values; called right after a successful `take()`.
    @inline(__always)
    func recordHolder() {
        if nestsReentrantValues {
            nestingThread.store(currentThreadNumber(), ordering: .relaxed)
        }
    }

    /// Runs `body` (a request to a source) with nesting off, so that a value the source sends at once from inside
    /// it waits in the buffer, as in Combine, where it would otherwise overtake the loop that delivers.
    @inline(__always)
    func withoutNesting(_ body: () -> Void) {
        guard nestsReentrantValues else { return body() }
        nestingThread.store(0, ordering: .relaxed)
        body()
        nestingThread.store(currentThreadNumber(), ordering: .relaxed)
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
