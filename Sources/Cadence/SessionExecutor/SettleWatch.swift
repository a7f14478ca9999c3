import CadenceRuntimeHooks
import CadenceSupport
import Dispatch

/// How a clock made outside a session (`VirtualClock()`, `DispatchQueue.test`) lets the tasks about to sleep on it get
/// there before `await advance(by:)` moves time, as swift-clocks' `TestClock` users expect — without yields.
///
/// A session knows its tasks and runs their jobs itself. A bare clock knows none, so while one is alive Cadence counts
/// every job of the process that no session takes: it holds the runtime's global enqueue hook, and runs each such job
/// where the runtime would have — on a global dispatch queue on no actor, or on the main queue for the main actor —
/// counting it until it returns. The clock's asynchronous drivers wait until none that was queued since the clock was
/// made is running or queued (``settle(since:)``): every task is then suspended — asleep on the clock, on a
/// continuation, on the wall clock — or finished, or busy with a job begun before the clock existed, which could not
/// have been on its way to the clock (another test's long synchronous body, running in parallel, is one).
///
/// What it cannot see it says so: work that never settles (a loop of `Task.yield()`, another test's work running in
/// parallel) or a job that never returns makes the wait give up, naming the sleeps the clock saw.
package enum SettleWatch {
    /// One driver waiting for the process to settle.
    private struct Waiter {
        /// Tells the waiter apart from the others for ``watchForStuck(waiter:lastFinished:quietLooks:)``.
        let id: UInt64
        let continuation: UnsafeContinuation<Outcome, Never>
        /// ``State/finished`` when it began waiting.
        let since: UInt64
        /// The ``Epoch`` of the clock waiting: the jobs queued before it are not waited for.
        let epoch: Epoch
    }

    /// The number of clocks that had begun counting when a job was queued, or when a clock began: a clock waits for
    /// the jobs of its own epoch and later ones.
    package typealias Epoch = UInt64

    /// How a wait ended.
    package enum Outcome: Equatable, Sendable {
        /// No counted job the clock waits for (one queued since it was made) was running or queued.
        case settled
        /// ``jobLimit`` jobs ran while waiting and others were still running or queued.
        case busy(jobs: Int)
        /// No job returned for ``stuckAfterSeconds`` while some were running.
        case stuck(running: Int)
    }

    private struct State {
        /// The clocks alive that count jobs.
        var holders = 0
        /// The clocks made so far that count jobs: the epoch of the jobs queued now.
        var epoch: Epoch = 0
        /// Jobs taken and not yet returned, by the epoch they were queued in.
        var inFlight: [Epoch: Int] = [:]
        /// Jobs returned since the process started counting.
        var finished: UInt64 = 0
        var waiters: [Waiter] = []
        /// The ``Waiter/id`` of the next waiter.
        var nextWaiter: UInt64 = 0
    }

    private static let state = Locked(State())

    /// How many jobs a wait lets run before giving up: as many as a session's wait (`SessionExecutor.jobLimit`).
    package static let jobLimit = SessionExecutor.jobLimit

    /// How long, in seconds, a wait lets running jobs go without one returning before giving up.
    package static let stuckAfterSeconds = 5

    /// Starts counting for one more clock, returning the clock's epoch; nil when this runtime gives Cadence no hooks
    /// (nothing is counted).
    package static func hold() -> Epoch? {
        guard SessionExecutor.isAvailable else { return nil }
        let (first, epoch) = state.withLock { state in
            defer { state.holders += 1 }
            state.epoch += 1
            return (state.holders == 0, state.epoch)
        }
        if first { _ = cadence_acquire_global_hook(false) }
        return epoch
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
        let epoch: Epoch? = state.withLock { state in
            guard state.holders > 0, isMainActorJob || !cadence_global_hook_chains_another() else { return nil }
            state.inFlight[state.epoch, default: 0] += 1
            return state.epoch
        }
        guard let epoch else { return false }
        if isMainActorJob {
            let job = unsafeBitCast(job, to: UnownedJob.self)
            DispatchQueue.main.async {
                job.runSynchronously(on: MainActor.sharedUnownedExecutor)
                returned(epoch)
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
                returned(epoch)
            }
        }
        return true
    }

    /// A job taken by ``take(_:isMainActorJob:)`` in `epoch` returned: the waiters it settles or exhausts go on.
    private static func returned(_ epoch: Epoch) {
        let resumed: [(UnsafeContinuation<Outcome, Never>, Outcome)] = state.withLock { state in
            if let count = state.inFlight[epoch], count > 1 {
                state.inFlight[epoch] = count - 1
            } else {
                state.inFlight[epoch] = nil
            }
            state.finished &+= 1
            guard !state.waiters.isEmpty else { return [] }
            var resumed: [(UnsafeContinuation<Outcome, Never>, Outcome)] = []
            let finished = state.finished
            let inFlight = state.inFlight
            state.waiters.removeAll { waiter in
                if running(in: inFlight, since: waiter.epoch) == 0 {
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

    /// How many of the jobs `inFlight` counts were queued in `epoch` or later. The epochs of the jobs running at once
    /// are few: a job queued in an epoch returns, and what it queues falls in the epoch of then.
    private static func running(in inFlight: [Epoch: Int], since epoch: Epoch) -> Int {
        inFlight.reduce(0) { sum, entry in entry.key >= epoch ? sum + entry.value : sum }
    }

    /// Suspends until no job queued since the clock of `epoch` began counting is running or queued — the caller's own,
    /// which suspends here, aside — or until the wait gives up (see ``Outcome``).
    nonisolated(nonsending) package static func settle(since epoch: Epoch) async -> Outcome {
        // The caller's own job may be one Cadence did not take (a test whose task began before any clock counted):
        // then the count could reach zero, and resume the caller, while the caller is still on its way to suspending.
        // Yielding comes back as a job that is counted, so the caller is resumed only once that job has returned.
        await Task.yield()
        return await withUnsafeContinuation { (continuation: UnsafeContinuation<Outcome, Never>) in
            let waiter: Waiter? = state.withLock { state in
                guard running(in: state.inFlight, since: epoch) > 0 else { return nil }
                let waiter = Waiter(
                    id: state.nextWaiter, continuation: continuation, since: state.finished, epoch: epoch)
                state.nextWaiter += 1
                state.waiters.append(waiter)
                return waiter
            }
            guard let waiter else { return continuation.resume(returning: .settled) }
            watchForStuck(waiter: waiter.id, lastFinished: waiter.since)
        }
    }

    /// Looks, each second, whether a job returned since the last look; gives up the wait of `waiter` after
    /// ``stuckAfterSeconds`` looks in a row saw none.
    private static func watchForStuck(waiter id: UInt64, lastFinished: UInt64, quietLooks: Int = 0) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(1)) {
            let look: (stuck: UnsafeContinuation<Outcome, Never>?, running: Int, finished: UInt64)? = state.withLock {
                state in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                guard state.finished == lastFinished, quietLooks + 1 >= stuckAfterSeconds else {
                    return (nil, 0, state.finished)
                }
                let waiter = state.waiters.remove(at: index)
                return (waiter.continuation, running(in: state.inFlight, since: waiter.epoch), state.finished)
            }
            guard let look else { return }
            if let stuck = look.stuck { return stuck.resume(returning: .stuck(running: look.running)) }
            watchForStuck(
                waiter: id, lastFinished: look.finished,
                quietLooks: look.finished == lastFinished ? quietLooks + 1 : 0
            )
        }
    }
}
