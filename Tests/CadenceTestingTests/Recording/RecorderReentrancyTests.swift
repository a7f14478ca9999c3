import CadenceTesting
import Foundation
import Testing

/// `expect(subject)` beside a subscriber that sends to the subject from inside `receive(_:)`: the recorder takes every
/// value of a 5,000-level re-entrant chain, on a thread with an 8 MB stack, and the chain reads them in the order
/// Combine delivers them. Under ThreadSanitizer the chain is 2,000 levels: its runtime's shadow stack has a fixed
/// 65,536 entries that it does not check, and 5,000 levels of a dozen or more instrumented frames run past them.
@Suite("Re-entrant sends: the recorder")
struct RecorderReentrancyTests {
    static let depth = runsUnderThreadSanitizer ? 2_000 : 5_000

    @Test func theRecorderTakesAFiveThousandLevelReentrantChain() {
        let levels = Synchronized(0)
        let failures = Synchronized<[String]>([])
        let ran = onThread(stackSize: 8 << 20) {
            let found = recordingFailures {
                let subject = PassthroughSubject<Int, Never>()
                let chain = expect(subject)
                let cancellable = subject.sink { value in
                    let level = levels.withLock {
                        $0 += 1
                        return $0
                    }
                    if level < Self.depth { subject.send(value + 1) }
                }
                subject.send(0)
                chain.toEmit(Array(0..<Self.depth))
                cancellable.cancel()
            }
            failures.value = found.map(\.message)
        }
        #expect(ran)
        #expect(levels.value == Self.depth)
        #expect(failures.value == [])
    }
}

/// Runs `body` on a new thread with a stack of `stackSize` bytes (times `sanitizerStackFactor`); false if it had not
/// ended after ten minutes (a hang guard, far above the time it takes).
private func onThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) -> Bool {
    let ended = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        ended.signal()
    }
    thread.stackSize = stackSize * sanitizerStackFactor
    thread.start()
    return ended.wait(timeout: .now() + 600) == .success
}

/// How many times the stack a frame takes in a plain debug build it takes in this one: ThreadSanitizer's
/// instrumentation makes each frame several times larger, so a thread sized for a depth in a plain build gets eight
/// times the stack under it (found by its runtime's `__tsan_init`, which an instrumented binary exports).
private let sanitizerStackFactor = runsUnderThreadSanitizer ? 8 : 1

/// Whether this binary is instrumented by ThreadSanitizer (its runtime exports `__tsan_init`).
let runsUnderThreadSanitizer: Bool = {
    let program = dlopen(nil, RTLD_NOW)
    defer { if let program { dlclose(program) } }
    return dlsym(program, "__tsan_init") != nil
}()
