import CadenceRuntimeHooks
import CadenceSupport
import Dispatch

/// How a clock made outside a session (`VirtualClock()`, `DispatchQueue.test`) lets the tasks about to sleep on it get
/// there before `await advance(by:)` moves time, as swift-clocks' `TestClock` users expect — without yields.
///
/// A session knows its tasks and runs their jobs itself. A bare clock knows none, so while one is alive Cadence counts
/// every job of the process that no session takes: it holds the runtime's global enqueue hook, and runs each such job
/// where the runtime would have — on a global dispatch queue on no actor, or on the main queue for the main actor —
/// counting it until it returns. The clock's asynchronous drivers wait until none is running or queued (``settle()``):
/// every task is then suspended — asleep on the clock, on a continuation, on the wall clock — or finished.
///
/// What it cannot see it says so: work that never settles (a loop of `Task.yield()`, another test's work running in
/// parallel) or a job that never returns makes the wait give up, naming the sleeps the clock saw.
package enum SettleWatch {
    /// One driver waiting for the process to settle.
    private struct Waiter {
        let continuation: UnsafeContinuation<Outcome, Never>
        /// ``State/finished`` when it began waiting.
        let since: UInt64
    }

    /// How a wait ended.
    package enum Outcome: Equatable, Sendable {
        /// No counted job was running or queued.
        case settled
        /// ``jobLimit`` jobs ran while waiting and others were still running or queued.
        case busy(jobs: Int)
        /// No job returned for ``stuckAfterSeconds`` while some were running.
        case stuck(running: Int)
    }

    private struct State {
        /// The clocks alive that count jobs.
        var holders = 0
        /// Jobs taken and not yet returned.
        var inFlight = 0
        /// Jobs returned since the process started counting.
        var finished: UInt64 = 0
        var waiters: [Waiter] = []
    }

    private static let state = Locked(State())

    /// How many jobs a wait lets run before giving up: as many as a session's wait (`SessionExecutor.jobLimit`).
    package static let jobLimit = SessionExecutor.jobLimit

    /// How long, in seconds, a wait lets running jobs go without one returning before giving up.
    package static let stuckAfterSeconds = 5

    /// Starts counting for one more clock; false when this runtime gives Cadence no hooks (nothing is counted).
    package static func hold() -> Bool {
        guard SessionExecutor.isAvailable else { return false }
        let first = state.withLock { state in
            defer { state.holders += 1 }
            return state.holders == 0
        }
        if first { _ = cadence_acquire_global_hook(false) }
        return true
    }

    /// One clock fewer counts jobs.
    package static func release() {
        let last = state.withLock { state in
            state.holders -= 1
            return state.holders == 0
        }
        if last { _ = cadence_release_global_hook(false) }
    }

    /// Takes `job`, which no session took, to run it where the runtime would have and count it until it returns —
    /// while a clock counts; false leaves it to the runtime. A job for the global executor is left to another
    /// library's hook that Cadence's chains (swift-concurrency-extras' `withMainSerialExecutor` sends it to the main
    /// actor, where it is counted then).
    static func take(_ job: UnsafeMutableRawPointer, isMainActorJob: Bool) -> Bool {
        let taken = state.withLock { state in
            guard state.holders > 0, isMainActorJob || !cadence_global_hook_chains_another() else { return false }
            state.inFlight += 1
            return true
        }
        guard taken else { return false }
        if isMainActorJob {
            let job = unsafeBitCast(job, to: UnownedJob.self)
            DispatchQueue.main.async {
                job.runSynchronously(on: MainActor.sharedUnownedExecutor)
                returned()
            }
        } else {
            // On Cadence's task executor, as a session runs its jobs: what a job enqueues on the executor it runs on
            // (a `Task.yield()`) comes back here to be counted, rather than going to the default executor past every
            // hook.
            let job = unsafeBitCast(job, to: UnownedJob.self)
            DispatchQueue.global().async {
                if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                    job.runSynchronously(on: SessionTaskExecutor.shared.asUnownedTaskExecutor())
                } else {
                    cadence_run_job_on_generic_executor(unsafeBitCast(job, to: UnsafeMutableRawPointer.self))
                }
                returned()
            }
        }
        return true
    }

    /// A job taken by ``take(_:isMainActorJob:)`` returned: the waiters it settles or exhausts go on.
    private static func returned() {
        let resumed: [(UnsafeContinuation<Outcome, Never>, Outcome)] = state.withLock { state in
            state.inFlight -= 1
            state.finished &+= 1
            guard !state.waiters.isEmpty else { return [] }
            var resumed: [(UnsafeContinuation<Outcome, Never>, Outcome)] = []
            let finished = state.finished
            let inFlight = state.inFlight
            state.waiters.removeAll { waiter in
                if inFlight == 0 {
                    resumed.append((waiter.continuation, .settled))
                } else if finished &- waiter.since >= UInt64(jobLimit) {
                    resumed.append((waiter.continuation, .busy(jobs: jobLimit)))
                } else {
                    return false
                }
                return true
            }
            return resumed
        }
        for (continuation, outcome) in resumed { continuation.resume(returning: outcome) }
    }

    /// Suspends until no job that a clock counts is running or queued — the caller's own, which suspends here, aside —
    /// or until the wait gives up (see ``Outcome``).
    nonisolated(nonsending) package static func settle() async -> Outcome {
        // The caller's own job may be one Cadence did not take (a test whose task began before any clock counted):
        // then the count could reach zero, and resume the caller, while the caller is still on its way to suspending.
        // Yielding comes back as a job that is counted, so the caller is resumed only once that job has returned.
        await Task.yield()
        return await withUnsafeContinuation { (continuation: UnsafeContinuation<Outcome, Never>) in
            let since: UInt64? = state.withLock { state in
                guard state.inFlight > 0 else { return nil }
                state.waiters.append(Waiter(continuation: continuation, since: state.finished))
                return state.finished
            }
            guard let since else { return continuation.resume(returning: .settled) }
            watchForStuck(since: since, lastFinished: since)
        }
    }

    /// Looks, each second, whether a job returned since the last look; gives up the wait that began when `since` jobs
    /// had returned after ``stuckAfterSeconds`` looks in a row saw none.
    private static func watchForStuck(since: UInt64, lastFinished: UInt64, quietLooks: Int = 0) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(1)) {
            let look: (stuck: UnsafeContinuation<Outcome, Never>?, running: Int, finished: UInt64)? = state.withLock {
                state in
                guard let index = state.waiters.firstIndex(where: { $0.since == since }) else { return nil }
                guard state.finished == lastFinished, quietLooks + 1 >= stuckAfterSeconds else {
                    return (nil, 0, state.finished)
                }
                return (state.waiters.remove(at: index).continuation, state.inFlight, state.finished)
            }
            guard let look else { return }
            if let stuck = look.stuck { return stuck.resume(returning: .stuck(running: look.running)) }
            watchForStuck(
                since: since, lastFinished: look.finished,
                quietLooks: look.finished == lastFinished ? quietLooks + 1 : 0
            )
        }
    }
}
