import CadenceSupport

/// What the work an operator schedules holds on to: its subscription, strongly, until the subscription is cancelled.
///
/// As in Combine, work scheduled for later keeps the subscription that scheduled it alive, so a value is delivered
/// even when nothing else holds the subscription. Once the subscription is cancelled that work has nothing left to
/// do, and it must not keep the subscription — and through it the scheduler — alive: a test scheduler nobody advances
/// any more would otherwise hold its clock, its pending work and the subscription in a cycle (issue 20 item 7).
///
/// The subscription schedules through `action(for:_:)` and calls `release()` when it is cancelled. The anchor that
/// holds it belongs to the pending actions (the subscription keeps only a weak reference to it), so no cycle forms
/// while nothing is pending either.
final class PendingWork<Owner: AnyObject>: @unchecked Sendable {
    // `slot` is guarded by its own lock; an anchor's `owner` by the anchor's.

    /// Holds the owner for the actions that share it, until released.
    private final class Anchor: @unchecked Sendable {
        let owner: Locked<Owner?>

        init(_ owner: Owner) {
            self.owner = Locked(owner)
        }
    }

    private struct Slot {
        weak var anchor: Anchor?
        var released = false
    }

    private let slot = Locked(Slot())

    init() {}

    /// An action that runs `body` with `owner` unless `release()` was called first. It holds `owner` until then.
    func action(for owner: Owner, _ body: @escaping (Owner) -> Void) -> () -> Void {
        let anchor = slot.withLock { slot -> Anchor? in
            if slot.released { return nil }
            if let anchor = slot.anchor { return anchor }
            let anchor = Anchor(owner)
            slot.anchor = anchor
            return anchor
        }
        guard let anchor else { return {} }
        return {
            if let owner = anchor.owner.withLock({ $0 }) { body(owner) }
        }
    }

    /// Lets go of the owner: actions scheduled before do nothing, and later ones are no-ops.
    func release() {
        let released = slot.withLock { slot -> Owner? in
            slot.released = true
            return slot.anchor?.owner.withLock { $0.take() }
        }
        withExtendedLifetime(released) {} // released here, outside the locks
    }
}
