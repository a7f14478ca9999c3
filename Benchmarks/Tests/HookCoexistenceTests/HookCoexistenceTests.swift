// Cadence beside swift-concurrency-extras' `withMainSerialExecutor` (which The Composable Architecture's users wrap
// tests in): both set the Swift runtime's global enqueue hook. Cadence holds it only while a session runs or a clock
// made outside one lives, chaining the hook it finds, and gives that one back when its last holder goes, so the two can
// follow each other in either order. The hook is process-wide: each test runs in a process of its own (an exit test).
import CadenceTesting
import ConcurrencyExtras
import Foundation
import Testing

#if os(macOS) || os(Linux)
@Suite("Cadence beside withMainSerialExecutor")
struct HookCoexistenceTests {
    /// A detached task's log on virtual time: "a" at once, "b" after a 1 s sleep on the clock, each after a hundred
    /// yields — which the session runs before its advance returns, if the task is the session's.
    static func detachedTaskLog() async -> [[String]] {
        await withVirtualTime { clock in
            let log = Log()
            Task.detached {
                for _ in 0..<100 { await Task.yield() }
                log.append("a")
                try? await clock.sleep(for: .seconds(1))
                for _ in 0..<100 { await Task.yield() }
                log.append("b")
            }
            await clock.advance(by: .zero)
            let first = log.entries
            await clock.advance(by: .seconds(1))
            return [first, log.entries]
        }
    }

    /// Where a detached task outside any session runs.
    static func whereADetachedTaskRuns() async -> String {
        await Task.detached { DispatchQueue.getSpecific(key: onlyOnMainQueue) == true ? "main" : "elsewhere" }.value
    }

    static let onlyOnMainQueue: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    @Test func aSessionAfterOneInsideWithMainSerialExecutorStillRunsItsTasks() async {
        await #expect(processExitsWith: .success) {
            await withMainSerialExecutor {
                _ = await HookCoexistenceTests.detachedTaskLog()
            }
            // Before: the first session chained withMainSerialExecutor's hook, which then put back none over
            // Cadence's: later sessions routed nothing ([[], []]).
            let log = await HookCoexistenceTests.detachedTaskLog()
            exit(log == [["a"], ["a", "b"]] ? 0 : 1)
        }
    }

    @Test func withMainSerialExecutorAfterASessionLeavesTheRestOfTheProcessAlone() async {
        await #expect(processExitsWith: .success) {
            _ = await HookCoexistenceTests.detachedTaskLog()
            await withMainSerialExecutor { await Task.yield() }
            // Before: withMainSerialExecutor found Cadence's hook, so on the way out it put back its own, and every task
            // of the process ran on the main queue.
            exit(await HookCoexistenceTests.whereADetachedTaskRuns() == "elsewhere" ? 0 : 1)
        }
    }

    @Test func aSessionInsideWithMainSerialExecutorRunsItsTasks() async {
        await #expect(processExitsWith: .success) {
            var log: [[String]] = []
            await withMainSerialExecutor {
                log = await HookCoexistenceTests.detachedTaskLog()
            }
            let after = await HookCoexistenceTests.whereADetachedTaskRuns()
            exit(log == [["a"], ["a", "b"]] && after == "elsewhere" ? 0 : 1)
        }
    }

    @Test func withMainSerialExecutorInsideASessionIsReportedOnce() async {
        await #expect(processExitsWith: .success) {
            let failures = await recordingFailures {
                await withVirtualTime { _ in await withMainSerialExecutor { await Task.yield() } }
                await withVirtualTime { _ in await withMainSerialExecutor { await Task.yield() } }
            }
            // The message names the hook in Cadence's place: by its address, as the test's executable exports no
            // symbol for it.
            let prefix =
                "While a virtual-time session ran, another library replaced the Swift runtime's global "
                + "enqueue hook that Cadence holds for its sessions (swift_task_enqueueGlobal_hook, now 0x"
            let suffix =
                "); swift-concurrency-extras' withMainSerialExecutor does when it starts inside a session. "
                + "Until a session puts Cadence's back, the session's tasks may run where that hook sends them, off "
                + "virtual time, and the other library may leave its hook in place for the rest of the process. Start "
                + "the other library's scope outside withVirtualTime (or the .virtualTime trait), not inside it."
            let messages = failures.map(\.message)
            exit(messages.count == 1 && messages[0].hasPrefix(prefix) && messages[0].hasSuffix(suffix) ? 0 : 1)
        }
    }
}

/// A clock made outside a session holds Cadence's hook too, for as long as it lives (it counts the process's jobs so
/// that its `await advance(by:)` lets tasks reach their sleeps first).
extension HookCoexistenceTests {
    /// A task sleeping a second on a clock made outside any session, and whether one advance woke it.
    static func bareClockWakesItsSleeper() async -> Bool {
        let clock = VirtualClock()
        let woke = Log()
        let task = Task {
            try await clock.sleep(for: .seconds(1))
            woke.append("woke")
        }
        await clock.advance(by: .seconds(1))
        _ = await task.result
        return woke.entries == ["woke"]
    }

    @Test func aBareClockInsideWithMainSerialExecutorWaitsForItsTasksAndLeavesTheProcessAlone() async {
        await #expect(processExitsWith: .success) {
            var woke = false
            await withMainSerialExecutor {
                woke = await HookCoexistenceTests.bareClockWakesItsSleeper()
            }
            let after = await HookCoexistenceTests.whereADetachedTaskRuns()
            exit(woke && after == "elsewhere" ? 0 : 1)
        }
    }

    @Test func withMainSerialExecutorInsideASessionIsReportedWhileABareClockLives() async {
        await #expect(processExitsWith: .success) {
            let clock = VirtualClock()
            let failures = await recordingFailures {
                await withVirtualTime { _ in await withMainSerialExecutor { await Task.yield() } }
            }
            let woke = await HookCoexistenceTests.bareClockWakesItsSleeper()
            withExtendedLifetime(clock) {}
            let reported = failures.map(\.message).filter { $0.hasPrefix("While a virtual-time session ran") }
            exit(reported.count == 1 && woke ? 0 : 1)
        }
    }
}

/// A hook of another library that chains to the one it found, as Cadence's does: installed on top of Cadence's while a
/// session runs, it is found in Cadence's place by the next session, which chains to it in turn.
private typealias Original = @convention(thin) (UnownedJob) -> Void
private typealias Hook = @convention(thin) (UnownedJob, Original) -> Void
nonisolated(unsafe) private var foundHook: Hook?
nonisolated(unsafe) private let globalHook = dlsym(dlopen(nil, RTLD_NOW), "swift_task_enqueueGlobal_hook")!
    .assumingMemoryBound(to: Hook?.self)

func installChainingHook() {
    foundHook = globalHook.pointee
    globalHook.pointee = { job, original in
        if let foundHook { foundHook(job, original) } else { original(job) }
    }
}

extension HookCoexistenceTests {
    @Test func aHookThatChainsToCadencesInTurnDoesNotLoop() async {
        await #expect(processExitsWith: .success) {
            _ = await recordingFailures {
                await withVirtualTime { _ in
                    installChainingHook()
                    await Task.yield()
                }
            }
            // Before: Cadence's hook called the other one, which called Cadence's, until the stack overflowed.
            let log = await HookCoexistenceTests.detachedTaskLog()
            let after = await Task.detached { "ran" }.value
            exit(log == [["a"], ["a", "b"]] && after == "ran" ? 0 : 1)
        }
    }
}

/// A log that tasks on any thread append to.
final class Log: @unchecked Sendable { // `lock` guards `storage`
    private let lock = NSLock()
    private var storage: [String] = []

    var entries: [String] { lock.withLock { storage } }

    func append(_ entry: String) { lock.withLock { storage.append(entry) } }
}
#endif
