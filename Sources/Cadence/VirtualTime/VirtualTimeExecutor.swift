import CadenceRuntimeHooks
import CadenceSupport
import Dispatch

/// The serial executor of one virtual-time session (a `.virtualTime` test case, a `withVirtualTime` call): every job
/// of the session's tasks runs here, one at a time, on the main thread, in the order the jobs were enqueued.
///
/// The Swift runtime hands every job it enqueues on the global concurrent executor or on the main actor's executor to
/// Cadence's enqueue hooks (installed once per process, see `CadenceRuntimeHooks`). A job belongs to a session when
///
/// - it is enqueued while a job of that session runs on this thread (what a job starts or resumes: a `Task {}`, a
///   `Task.detached`, a continuation resumed, a hop to an actor or to the main actor, a sleeper the clock wakes), or
/// - the task enqueueing it carries the session's task-local ``current`` (the session's own body and every `Task {}`
///   created inside it, which inherit task-locals).
///
/// Any other job goes where the runtime would have sent it, untouched, so tests running in parallel stay apart.
///
/// The session's jobs wait in one first-in, first-out queue that a drain posted to the main dispatch queue runs: each
/// job runs synchronously on the main actor's executor (so main-actor code finds itself on the main actor and on the
/// main thread). A caller of ``waitUntilIdle(origin:)`` parks until the queue is empty, and is then resumed — its own
/// job enqueued last — so `await clock.advance(by:)` knows every other task of the session is suspended or finished.
package final class VirtualTimeExecutor: Sendable {
    /// How many jobs may run while a caller waits for the session to go idle before the wait gives up and reports a
    /// task that never suspends: a hundred thousand, far more than a test's tasks take between two ticks.
    package static let jobLimit = 100_000

    /// How many jobs one drain runs before it hands the main thread back and posts itself again, so a session that
    /// never idles cannot starve another session, or the main actor's other work.
    static let jobsPerDrain = 1_000

    /// What marks a task as one of the session's: `Task {}` copies it into the tasks it creates, and a task releases
    /// it when it finishes — so once the session has let go of its own, a membership still alive means a task of the
    /// session still is.
    package final class Membership: Sendable {
        package let executor: VirtualTimeExecutor
        package init(_ executor: VirtualTimeExecutor) { self.executor = executor }
    }

    /// The session of the running task, if it is one of a session's tasks.
    @TaskLocal package static var current: Membership?

    private struct State {
        var jobs: [UnownedJob] = []
        var head = 0
        var waiters: [UnsafeContinuation<Void, Never>] = []
        var waiterOrigins: [String] = []
        /// Whether a drain is posted to the main queue or running.
        var isDraining = false
        /// Jobs run since the queue was last empty.
        var jobsSinceIdle = 0
        var hasEnded = false

        var readyCount: Int { jobs.count - head }

        mutating func popJob() -> UnownedJob? {
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            } else if head > 1024, head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }
    }

    private let state = Locked(State())
    private let reporter: IssueReporter
    private let now: @Sendable () -> Int64

    /// An executor reporting runaway tasks through `reporter`, with the tick `now` gives in its messages.
    package init(reporter: IssueReporter, now: @escaping @Sendable () -> Int64) {
        self.reporter = reporter
        self.now = now
        Self.installHooks()
    }

    /// Installs the runtime hooks that route jobs to sessions; once per process, at the first session.
    private static func installHooks() {
        cadence_install_enqueue_router { job, isMainActorJob in
            VirtualTimeExecutor.route(job, isMainActorJob: isMainActorJob)
        }
    }

    /// Takes `job` into the session it belongs to, if any; false lets the runtime enqueue it as usual.
    private static func route(_ job: UnsafeMutableRawPointer, isMainActorJob _: Bool) -> Bool {
        let executor: VirtualTimeExecutor
        if let marked = cadence_thread_session() {
            executor = Unmanaged<VirtualTimeExecutor>.fromOpaque(marked).takeUnretainedValue()
        } else if let membership = current {
            executor = membership.executor
        } else {
            return false
        }
        // A job pointer is what `UnownedJob` wraps: the runtime's `Job *`, the same value the hook was handed.
        return executor.accept(unsafeBitCast(job, to: UnownedJob.self))
    }

    private func accept(_ job: UnownedJob) -> Bool {
        let post: Bool? = state.withLock { state in
            guard !state.hasEnded else { return nil }
            state.jobs.append(job)
            guard !state.isDraining else { return false }
            state.isDraining = true
            return true
        }
        guard let post else { return false }
        if post { postDrain() }
        return true
    }

    private func postDrain() {
        DispatchQueue.main.async { self.drain() }
    }

    private enum Step {
        case run(UnownedJob)
        case wake(UnsafeContinuation<Void, Never>, busy: (origin: String, ready: Int)?)
        case yieldMainThread
        case stop
    }

    /// Runs the session's jobs in order on the main thread, waking one idle waiter whenever the queue is empty.
    private func drain() {
        let previous = cadence_set_thread_session(Unmanaged.passUnretained(self).toOpaque())
        defer { _ = cadence_set_thread_session(previous) }
        var steps = 0
        while true {
            let step: Step = state.withLock { state in
                if steps >= Self.jobsPerDrain { return .yieldMainThread }
                if !state.waiters.isEmpty, state.jobsSinceIdle >= Self.jobLimit, state.readyCount > 0 {
                    state.jobsSinceIdle = 0
                    let origin = state.waiterOrigins.removeFirst()
                    return .wake(state.waiters.removeFirst(), busy: (origin, state.readyCount))
                }
                if let job = state.popJob() {
                    state.jobsSinceIdle += 1
                    return .run(job)
                }
                state.jobsSinceIdle = 0
                if !state.waiters.isEmpty {
                    state.waiterOrigins.removeFirst()
                    return .wake(state.waiters.removeFirst(), busy: nil)
                }
                state.isDraining = false
                return .stop
            }
            steps += 1
            switch step {
            case .run(let job):
                job.runSynchronously(on: MainActor.sharedUnownedExecutor)
            case .wake(let waiter, let busy):
                if let busy { reportBusy(origin: busy.origin, ready: busy.ready) }
                waiter.resume()
            case .yieldMainThread:
                postDrain()
                return
            case .stop:
                return
            }
        }
    }

    private func reportBusy(origin: String, ready: Int) {
        reporter.report(
            "\(origin) stopped waiting for the test's tasks after running \(Self.jobLimit.groupedDigits) jobs " +
            "at tick \(now()) with \(ready == 1 ? "1 job" : "\(ready.groupedDigits) jobs") still ready to run: a " +
            "task that never suspends on the clock and never finishes (a loop of Task.yield()?) never lets the " +
            "test go idle. It is left running; make it sleep on the clock, await something, or finish."
        )
    }

    /// Suspends until every other job of the session has run and none is ready: each of the session's tasks is
    /// suspended (on the clock, on a continuation nobody has resumed yet) or finished.
    ///
    /// Gives up after ``jobLimit`` jobs with some still ready, reporting it as the work of `origin`. After ``end()``
    /// it returns at once.
    package func waitUntilIdle(origin: String) async {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            let post: Bool? = state.withLock { state in
                guard !state.hasEnded else { return nil }
                state.waiters.append(continuation)
                state.waiterOrigins.append(origin)
                guard !state.isDraining else { return false }
                state.isDraining = true
                return true
            }
            guard let post else { return continuation.resume() }
            if post { postDrain() }
        }
    }

    /// Stops taking jobs: from now on the session's tasks run where the runtime sends them. Jobs still waiting to
    /// run are dropped (their tasks never run again) and counted; idle waiters are resumed.
    ///
    /// - Returns: how many jobs were still ready to run.
    @discardableResult
    package func end() -> Int {
        let (dropped, waiters): (Int, [UnsafeContinuation<Void, Never>]) = state.withLock { state in
            guard !state.hasEnded else { return (0, []) }
            state.hasEnded = true
            let dropped = state.readyCount
            state.jobs = []
            state.head = 0
            defer { state.waiters = []; state.waiterOrigins = [] }
            return (dropped, state.waiters)
        }
        for waiter in waiters { waiter.resume() }
        return dropped
    }
}

extension Int {
    /// `"100,000"`: the number with its thousands grouped, for messages.
    var groupedDigits: String {
        let digits = String(magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return self < 0 ? "-" + grouped : grouped
    }
}
