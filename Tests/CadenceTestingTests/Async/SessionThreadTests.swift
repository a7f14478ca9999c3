import CadenceTesting
import Dispatch
import Foundation
import Testing

/// Where a session runs its tasks' jobs: a main-actor job on the main queue, every other job off it, as the runtime
/// would run them — one at a time, in the session's order. Code that asks where it runs (`dispatchPrecondition`,
/// `MainActor.assumeIsolated`, `DispatchQueue.getSpecific`) or hops to the main queue synchronously gets the answer it
/// gets in production.
@Suite struct SessionThreadTests {
    /// Ends an exit test's process with a failure if it is still running after ten seconds: a hang fails the test
    /// rather than the run.
    static func failIfStillRunning() {
        DispatchQueue.global().asyncAfter(deadline: .now() + 10) { _exit(124) }
    }

    /// `MainActor.assumeIsolated`, from synchronous code as legacy code calls it.
    static func assumeMainActor() -> String {
        MainActor.assumeIsolated { "isolated" }
    }

    /// A key only the main queue has a value for: whether code runs on the main queue, asked without trapping.
    static let onlyOnMainQueue: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static func whereItRuns() -> String {
        DispatchQueue.getSpecific(key: onlyOnMainQueue) == true ? "on the main queue" : "off the main queue"
    }

    #if !canImport(Combine) || os(macOS)
    @Test func aDetachedTaskHopsToTheMainQueueSynchronously() async {
        await #expect(processExitsWith: .success) {
            SessionThreadTests.failIfStillRunning()
            let value = await withVirtualTime { _ in
                await Task.detached { DispatchQueue.main.sync { "hopped" } }.value
            }
            if value != "hopped" { _exit(1) }
        }
    }

    @Test func aDetachedTaskIsOffTheMainQueue() async {
        await #expect(processExitsWith: .success) {
            SessionThreadTests.failIfStillRunning()
            await withVirtualTime { _ in
                await Task.detached { dispatchPrecondition(condition: .notOnQueue(.main)) }.value
                await Task { @Sendable in dispatchPrecondition(condition: .notOnQueue(.main)) }.value
            }
        }
    }

    @Test func mainActorAssumeIsolatedTrapsOffTheMainActor() async {
        await #expect(processExitsWith: .failure) {
            SessionThreadTests.failIfStillRunning()
            await withVirtualTime { _ in
                await Task.detached { _ = SessionThreadTests.assumeMainActor() }.value
            }
            // Reached only when the assumption passed off the main actor.
            _exit(0)
        }
    }

    /// The main actor's executor answers the runtime's question without trapping itself, so the runtime reports the
    /// wrong assumption in its own words, as in production.
    @Test func mainActorAssumeIsolatedOffTheMainActorFailsInTheRuntimesWords() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await withVirtualTime { _ in
                await Task.detached { _ = SessionThreadTests.assumeMainActor() }.value
            }
        }
        #expect(
            String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains("Incorrect actor executor assumption"))
    }
    #endif

    @Test func aMainActorTaskRunsOnTheMainQueueAndIsIsolatedToTheMainActor() async {
        let answers = await withVirtualTime { clock in
            let task = Task { @MainActor in
                let before = SessionThreadTests.whereItRuns()
                try? await clock.sleep(for: .seconds(1))
                return [before, SessionThreadTests.whereItRuns(), SessionThreadTests.assumeMainActor()]
            }
            await clock.advance(by: .seconds(1))
            return await task.value
        }
        #expect(answers == ["on the main queue", "on the main queue", "isolated"])
    }

    /// `whereItRuns()` reads a value only the main queue has: a detached task must not see it.
    @Test func aDetachedTaskReadsNoneOfTheMainQueuesValues() async {
        let answers = await withVirtualTime { clock in
            let task = Task.detached {
                let before = SessionThreadTests.whereItRuns()
                try? await clock.sleep(for: .seconds(1))
                return [before, SessionThreadTests.whereItRuns()]
            }
            await clock.advance(by: .seconds(1))
            return await task.value
        }
        #expect(answers == ["off the main queue", "off the main queue"])
    }

    /// Main-actor jobs and others take turns, each on its own side.
    @Test func mainActorJobsAndOthersKeepOneOrder() async {
        let trace = await withVirtualTime { clock in
            let log = Log()
            let main = Task { @MainActor in
                for step in 0..<3 {
                    log.append("main \(step) \(SessionThreadTests.whereItRuns())")
                    try? await clock.sleep(for: .seconds(1))
                }
            }
            let other = Task.detached {
                for step in 0..<3 {
                    log.append("other \(step) \(SessionThreadTests.whereItRuns())")
                    try? await clock.sleep(for: .seconds(1))
                }
            }
            await clock.advance(by: .seconds(3))
            await main.value
            await other.value
            return log.entries
        }
        // Each task's steps, each on its side. Which of the two wakes first at tick 2000 differs between a debug and a
        // release build (each sleep hops off its task's executor before the clock takes it; still open in issue 33),
        // so the interleaving is not checked here.
        #expect(
            trace.filter { $0.hasPrefix("main") } == [
                "main 0 on the main queue", "main 1 on the main queue", "main 2 on the main queue",
            ])
        #expect(
            trace.filter { $0.hasPrefix("other") } == [
                "other 0 off the main queue", "other 1 off the main queue", "other 2 off the main queue",
            ])
        #expect(trace.count == 6)
    }

    /// The running thread, asked from synchronous code.
    static func currentThread() -> ObjectIdentifier {
        ObjectIdentifier(Thread.current)
    }

    /// A body off the main actor starts as a job of its session, on the thread that runs the session's tasks, every
    /// time: a task it starts waits until the body suspends, as every job of the session waits for the one running.
    /// (The body used to enter through a `Task.yield()`, which could resume it before it had suspended, and then it
    /// went on outside the session, on a thread of the pool, while the session ran its tasks — now and then in a
    /// plain run, often under ThreadSanitizer.)
    @Test func aBodyOffTheMainActorStartsOnTheSessionsThreadEveryTime() async {
        var outside: [String] = []
        for run in 1...100 {
            let seen: String? = await withVirtualTime { _ in
                let started = Synchronized(false)
                let bodyThread = SessionThreadTests.currentThread()
                let task = Task {
                    started.withLock { $0 = true }
                    return SessionThreadTests.currentThread()
                }
                // Long enough for a task running beside the body to start: 200 µs of the body's own work.
                let deadline = DispatchTime.now().uptimeNanoseconds + 200_000
                while DispatchTime.now().uptimeNanoseconds < deadline, !started.withLock({ $0 }) {}
                let ranBeside = started.withLock { $0 }
                let taskThread = await task.value
                let sameThread = bodyThread == taskThread
                if sameThread, !ranBeside { return nil }
                let what = sameThread ? "its task ran beside the body" : "the body ran off the session's thread"
                return "run \(run): \(what)"
            }
            if let seen { outside.append(seen) }
        }
        #expect(outside == [])
    }

    final class Log: @unchecked Sendable { // `lock` guards `storage`
        private let lock = NSLock()
        private var storage: [String] = []
        func append(_ entry: String) { lock.withLock { storage.append(entry) } }
        var entries: [String] { lock.withLock { storage } }
    }
}
