import CadenceSupport
import Synchronization

/// Tells a call that re-enters a region of an operator on the thread already inside it: a region where Apple's
/// Combine holds a lock of its own, and traps when the same thread takes it again. Calls from other threads are not
/// re-entrance (Combine's lock would make them wait): each thread is checked apart.
final class ReentranceCheck: Sendable {
    /// The threads inside the region now, each at most once: a thread that would enter again stops there.
    private let threads = Locked<[UInt]>([])
    /// How many threads are inside: read first, so that a check with nobody inside takes no lock.
    private let inside = Atomic<Int>(0)

    /// Runs `body` inside the region, unless this thread is inside it already: then it checks the rule with
    /// `message` (Cadence stops, or reports into the running test) and, when it survives, skips `body`.
    func run(violating message: @autoclosure () -> String, _ body: () -> Void) {
        let thread = currentThreadNumber()
        let reentered = threads.withLock { threads in
            if threads.contains(thread) { return true }
            threads.append(thread)
            return false
        }
        guard combineRule(!reentered, message()) else { return }
        inside.add(1, ordering: .relaxed)
        body()
        leave(thread)
    }

    /// Runs `body` inside the region, where `isEnteredByCurrentThread` tells a call it makes back on this thread.
    func inside<Result>(_ body: () -> Result) -> Result {
        let thread = currentThreadNumber()
        threads.withLock { $0.append(thread) }
        inside.add(1, ordering: .relaxed)
        defer { leave(thread) }
        return body()
    }

    /// Whether this thread is inside the region now. A thread inside has counted itself in before, so it never
    /// reads 0 here; another thread may, and is not inside.
    var isEnteredByCurrentThread: Bool {
        guard inside.load(ordering: .relaxed) > 0 else { return false }
        let thread = currentThreadNumber()
        return threads.withLock { $0.contains(thread) }
    }

    private func leave(_ thread: UInt) {
        inside.subtract(1, ordering: .relaxed)
        threads.withLock { threads in
            if let index = threads.firstIndex(of: thread) { threads.remove(at: index) }
        }
    }
}
