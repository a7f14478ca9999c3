import Foundation

/// Measures re-entrant delivery: how deep a chain of sends made from inside `receive(_:)` gets, and how much stack
/// each level takes, on a thread of its own with a stack of a known size.
///
/// A level notes the address of one of its locals; the stack grows down, so the distance between the first level's
/// note and the last one's, over the levels between them, is the stack one level takes.
final class ReentrancyProbe: @unchecked Sendable {
    // Written only by the probe's one thread, and read after `run` has waited for that thread to end.
    private(set) var depth = 0
    private var firstAddress: UInt = 0
    private var lastAddress: UInt = 0

    /// Notes one more level; returns whether the chain should go one level deeper.
    @inline(never)
    func enterLevel(limit: Int) -> Bool {
        var marker = depth
        let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        if depth == 0 { firstAddress = address }
        lastAddress = address
        depth += 1
        return depth < limit
    }

    /// The stack one level took, in bytes, averaged over every level after the first.
    var bytesPerLevel: Int {
        depth > 1 ? Int(firstAddress - lastAddress) / (depth - 1) : 0
    }

    /// Runs `body` on a new thread with a stack of `stackSize` bytes (times `sanitizerStackFactor`); returns false if
    /// it had not ended after ten minutes (a hang guard, far above the milliseconds it takes).
    static func onThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) -> Bool {
        let ended = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            ended.signal()
        }
        thread.stackSize = stackSize * sanitizerStackFactor
        thread.start()
        return ended.wait(timeout: .now() + 600) == .success
    }
}

/// How many times the stack a frame takes in a plain debug build it takes in this one: ThreadSanitizer's
/// instrumentation makes each frame several times larger, so a thread sized for a depth in a plain build gets eight
/// times the stack under it (found by its runtime's `__tsan_init`, which an instrumented binary exports).
let sanitizerStackFactor: Int = runsUnderThreadSanitizer ? 8 : 1

/// The depth a re-entrancy test goes to: `plain`, or at most 2,000 levels under ThreadSanitizer. Its runtime keeps
/// each thread's calls in a shadow stack of a fixed 65,536 entries and, in the builds that ship, does not check for
/// its end; at a dozen or more instrumented frames a level, 5,000 levels run past it and overwrite the runtime's own
/// memory (seen as hangs and crashes inside the runtime, never in Cadence). The plain build keeps the full depth.
func reentrancyDepth(_ plain: Int) -> Int {
    runsUnderThreadSanitizer ? min(plain, 2_000) : plain
}

/// Whether this binary is instrumented by ThreadSanitizer (its runtime exports `__tsan_init`).
let runsUnderThreadSanitizer: Bool = {
    let program = dlopen(nil, RTLD_NOW)
    defer { if let program { dlclose(program) } }
    return dlsym(program, "__tsan_init") != nil
}()
