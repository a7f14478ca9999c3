import CadenceRuntimeHooks
import CadenceSupport
import Dispatch
import Foundation

/// The serial executor of one virtual-time session (a `.virtualTime` test case, a `withVirtualTime` body): every job
/// of the session's tasks runs here, one at a time, in the order the jobs were enqueued, where the runtime would have
/// run it — a main-actor job on the main queue, any other off it, on a thread of the session's own.
///
/// The Swift runtime hands every job it enqueues on the global concurrent executor or on the main actor's executor to
/// Cadence's enqueue hooks (installed once per process, see `CadenceRuntimeHooks`). A job is the session's when
///
/// 1. it runs a task the session already knows — the body's own task, and every task whose job the session has
///    taken before — or
/// 2. it is enqueued while a job of the session runs on this thread (what a job starts or resumes: a `Task {}`, a
///    `Task.detached`, a child of `async let` or of a task group, a continuation resumed, a hop to an actor or to the
///    main actor, a sleeper the clock wakes), or
/// 3. it is enqueued by a task the session knows, on any thread (the body creating a task before its first hop).
///
/// Any other job goes where the runtime would have sent it, untouched, so tests running in parallel stay apart; a job
/// of a task that another session knows goes to that session.
///
/// The session's jobs wait in one first-in, first-out queue. A drain on the body's side — the main queue for a body on
/// the main actor, the session's thread otherwise — runs them, each synchronously: a main-actor job on the main actor's
/// executor, any other on the global executor's terms (no actor), so code finds itself isolated, and on the thread,
/// exactly as it would be. When the next job is the other side's, the drain hands that side a stretch of its jobs and
/// waits for it (see `handOver(to:limit:)`): the two sides take turns, never run at once. A caller of
/// ``waitUntilIdle(origin:)`` parks until the queue is empty, and is then resumed — its own job enqueued last — so
/// `await clock.advance(by:)` knows every other task of the session is suspended or finished.
package final class SessionExecutor: Sendable {
    /// How many jobs may run while a caller waits for the session to go idle before the wait gives up and reports a
    /// task that never suspends: a hundred thousand, far more than a test's tasks take between two ticks.
    package static let jobLimit = 100_000

    /// What marks a task as one of the session's for the report of tasks still alive when it ends: `Task {}` copies
    /// the task-local into the tasks it creates, and a task releases it when it finishes — so once the session has let
    /// go of its own, a membership still alive means a task of the session still is.
    ///
    /// A `Task.detached` copies no task-local value, and none can be given to a task once it is made: the runtime
    /// keeps a task's values on the task's own stack allocator, and an enqueued task already holds a later allocation
    /// there, which it frees when it first runs (out of order: the runtime aborts, "freed pointer was not the last
    /// allocation"). The runtime exports no way to ask another task whether it has finished.
    package final class Membership: Sendable {
        package init() {}
    }

    /// The session of the running task, if it is one of a session's tasks (for the report of leftover tasks only).
    @TaskLocal package static var current: Membership?

    private struct Entry {
        let job: UnownedJob
        let isMainActorJob: Bool
        /// The task the job goes on with (itself, or the task a `Task.yield()` continuation resumes), to cancel if
        /// the job is still waiting when the session ends; nil for any other job.
        let task: UnsafeMutableRawPointer?
        /// Whether the job is the task itself (not a continuation or an actor's job).
        var isTask = false
    }

    private struct State {
        var jobs: [Entry] = []
        var head = 0
        var waiters: [UnsafeContinuation<Void, Never>] = []
        /// Who waits, for the report of a task that never lets the session go idle; nil for a wait that reports
        /// nothing (the session's own, which reports what is left when it ends).
        var waiterOrigins: [String?] = []
        /// Whether a task that never suspends was reported since the queue was last empty: it is reported once.
        var runawayReported = false
        /// Whether a wait gave up on a task that never suspends since the queue was last empty.
        var waitGaveUp = false
        /// Whether a drain is posted to the body's side or running.
        var isDraining = false
        /// The session whose task runs this session's body, if the session was begun inside another one: it counts
        /// this session as busy while this one drains.
        var outer: SessionExecutor?
        /// Whether this session holds the runtime's global enqueue hook (from `begin` to `end`).
        var holdsHook = false
        /// How many sessions begun in tasks of this one are draining now: this session's jobs wait until none is, as
        /// they would wait for any job of its own that runs (one job at a time).
        var busyInnerSessions = 0
        /// The side the drain runs on: the body's (the main queue for a body on the main actor).
        var home = Side.queue
        /// Jobs run since the queue was last empty, counted as ``charge(_:)`` counts them.
        var jobsSinceIdle = 0
        /// The task the last job run went on with, and how many jobs in a row it ran free of charge.
        var lastTask: UnsafeMutableRawPointer?
        var freeRepeats = 0
        var hasEnded = false
        /// Whether a nested run (`runReadyJobs`) gave up on a task that never suspends since the queue was last empty:
        /// later nested runs leave it to the drain rather than report it again.
        var nestedRunGaveUp = false
        /// What takes the session's sleeps on `ContinuousClock` and `SuspendingClock` onto its virtual clock, when
        /// the session asked for that; nil otherwise, and once the session has ended.
        var systemSleeps: SystemSleepScheduler?
        /// Told of each job of a task the session takes while ``systemSleeps`` is set, by task identifier: a task
        /// asleep on a system clock that comes back before its wake-up was woken by a cancellation.
        var taskResumed: (@Sendable (_ task: UInt64) -> Void)?
        /// The task of the session's body, once the session has begun.
        var bodyTask: UInt64 = 0
        /// How many jobs the session has taken: a stall check finds it unchanged if nothing ran in the meantime.
        var accepted: UInt64 = 0
        /// How the session's clock answers a stall check; nil once the session has ended.
        var stallWatch: StallWatch?
        /// Whether a task of the session was found running on an executor the session does not drive: reported once.
        var escapeReported = false

        /// Whether the job at `head` was chosen among the ready jobs of different lanes (an exploring session's
        /// executor), so that every look at it until it runs sees the same job.
        var headChosen = false

        var readyCount: Int { jobs.count - head }

        var next: Entry? { head < jobs.count ? jobs[head] : nil }

        /// What running `entry` costs of a wait's budget: one job, except the task itself enqueued again right after
        /// a job that went on with it, up to three times in a row. Resuming a task takes the runtime up to four jobs —
        /// a `Task.yield()` enqueues a continuation, and the task then hops to its executor — which would make a yield
        /// cost four; counted so, it costs one. A task that only hops (between the main actor and the rest, say) is
        /// still charged every fourth job, so that it cannot run for free.
        mutating func charge(_ entry: Entry) -> Int {
            defer { lastTask = entry.task }
            if entry.isTask, entry.task != nil, entry.task == lastTask, freeRepeats < 3 {
                freeRepeats += 1
                return 0
            }
            freeRepeats = 0
            return 1
        }

        /// In a session that explores schedules: lets `chooser` pick which lane's first ready job runs next, when
        /// more than one lane has a job ready, and puts it at the head of the queue — once per job at the head. Every
        /// lane keeps its order; the candidates are offered in the order their first jobs came, so choice 0 changes
        /// nothing.
        mutating func chooseHead(_ chooser: ScheduleChooser, tick: Int64) {
            guard !headChosen, readyCount > 1 else { return }
            headChosen = true
            var lanes: [ScheduleLane] = []
            var positions: [Int] = []
            var seen: Set<ScheduleLane> = []
            for index in head..<jobs.count {
                let lane = Self.lane(of: jobs[index])
                if seen.insert(lane).inserted {
                    lanes.append(lane)
                    positions.append(index)
                }
            }
            guard lanes.count > 1 else { return }
            let chosen = chooser.choose(.executor, tick: tick, among: lanes)
            guard chosen > 0 else { return }
            let entry = jobs.remove(at: positions[chosen])
            jobs.insert(entry, at: head)
        }

        /// The lane of a ready job: the main actor's, its task's, or its own.
        private static func lane(of entry: Entry) -> ScheduleLane {
            if entry.isMainActorJob { return .mainActor }
            if let task = entry.task { return .task(cadence_job_task_id(task)) }
            return .job(unsafeBitCast(entry.job, to: UInt.self))
        }

        mutating func popJob() -> Entry? {
            guard head < jobs.count else { return nil }
            let entry = jobs[head]
            head += 1
            headChosen = false
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            } else if head > 1024, head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return entry
        }
    }

    /// Where a job runs: on the main queue (a main-actor job), or on the session's thread (any other).
    fileprivate enum Side {
        case main, queue

        var other: Side { self == .main ? .queue : .main }
    }

    fileprivate struct BySide<Value: Sendable>: Sendable {
        var main: Value
        var queue: Value

        subscript(side: Side) -> Value {
            get { side == .main ? main : queue }
            set { if side == .main { main = newValue } else { queue = newValue } }
        }
    }

    /// What one side asks of the other: run a stretch of at most `limit` of its jobs (nil: until the drain would
    /// stop, see ``runStretch(on:limit:)``), or — the answer — that the stretch is over after `ran` jobs.
    fileprivate enum Mail {
        case runStretch(limit: Int?)
        case done(ran: Int)
        /// To the session's thread: drain the session's jobs (the body is not on the main actor).
        case drain

        /// The mail as a slot's word: 2 or more, the low two bits telling the kind.
        var word: Int {
            switch self {
            case .done(let ran): return ran << 2 | 2
            case .runStretch(let limit): return (limit.map { $0 + 1 } ?? 0) << 2 | 3
            case .drain: return 4
            }
        }

        init(word: Int) {
            let payload = word >> 2
            switch word & 3 {
            case 2: self = .done(ran: payload)
            case 3: self = .runStretch(limit: payload == 0 ? nil : payload - 1)
            default: self = .drain
            }
        }
    }

    /// Each side's mail slot: one word the two sides hand each other without a lock, so that a side waiting for mail
    /// polls it without slowing the other side down. The word says whether the side is there to take mail and how it
    /// waits, or holds the mail: only the side itself goes from ``absent`` to ``waiting``, or back, or to ``asleep``
    /// (and then sleeps on its bell); only the other side puts mail in, and only while the side waits or sleeps
    /// (ringing the bell if it slept); the side takes the mail out, back to ``waiting``. The two sides take turns, so
    /// a slot never holds two pieces of mail.
    fileprivate final class MailSlots: @unchecked Sendable {
        static let absent = -1
        static let waiting = 0
        static let asleep = 1

        private let main = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        /// The session thread's slot, which lives as long as the thread.
        private let queue: UnsafeMutablePointer<Int>

        init(queue: UnsafeMutablePointer<Int>) {
            main.initialize(to: Self.absent)
            self.queue = queue
        }

        deinit {
            main.deallocate()
        }

        func word(_ side: Side) -> UnsafeMutablePointer<Int> { side == .main ? main : queue }

        func replace(_ side: Side, _ expected: Int, with value: Int) -> Bool {
            cadence_atomic_compare_exchange(word(side), expected, value)
        }
    }

    private let state = Locked(State())
    /// What chooses, in a session that explores schedules, which lane's first ready job runs next; nil (first in,
    /// first out) in every other session.
    private let chooser: ScheduleChooser?
    /// The thread that runs the session's jobs that are not the main actor's, the session's own until it is released.
    private let thread: SessionThread
    private let slots: MailSlots
    private let reporter: FailureReporter
    private let now: @Sendable () -> Int64
    /// Rung when the other side has left mail for a side asleep waiting for it.
    private let bells: BySide<DispatchSemaphore>

    /// An executor reporting runaway tasks through `reporter`, with the tick `now` gives in its messages.
    package init(reporter: FailureReporter, now: @escaping @Sendable () -> Int64, chooser: ScheduleChooser? = nil) {
        self.reporter = reporter
        self.now = now
        self.chooser = chooser
        thread = SessionThread.lease()
        slots = MailSlots(queue: thread.slot)
        bells = BySide(main: DispatchSemaphore(value: 0), queue: thread.bell)
        thread.serve(self)
    }

    deinit {
        thread.release()
    }

    /// The side this thread is on, when it runs a job of the session.
    private var currentSide: Side { cadence_is_session_thread() ? .queue : .main }

    private var mark: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    // MARK: Routing

    /// The live sessions and the tasks each knows.
    private struct Registry {
        /// The session each known task belongs to, by task identifier.
        var sessionOfTask: [UInt64: SessionExecutor] = [:]
        /// The tasks each live session knows, to forget them when it ends.
        var tasksOfSession: [ObjectIdentifier: [UInt64]] = [:]
        /// The session a nested session's body belonged to before it began, given back when it ends.
        var outerSessionOfBody: [ObjectIdentifier: (task: UInt64, session: SessionExecutor)] = [:]
    }

    private static let registry = Locked(Registry())

    /// Whether this runtime lets Cadence route jobs (it has the enqueue and main-executor hooks); installs them on
    /// first use.
    package static let isAvailable: Bool = {
        guard cadence_can_run_jobs() else { return false }
        let main = MainActorExecutor.shared.asUnownedSerialExecutor()
        let reference = unsafeBitCast(main, to: CadenceExecutorRef.self)
        guard cadence_install_main_executor(reference) else { return false }
        return cadence_install_enqueue_router { job, isMainActorJob in
            SessionExecutor.route(job, isMainActorJob: isMainActorJob)
        }
    }()

    /// Takes a main-actor job into the session it belongs to, if any; false lets the main queue run it.
    static func routeMainActorJob(_ job: UnownedJob) -> Bool {
        route(unsafeBitCast(job, to: UnsafeMutableRawPointer.self), isMainActorJob: true)
    }

    /// Takes `job` into the session it belongs to, if any; false lets the runtime enqueue it as usual.
    static func route(_ job: UnsafeMutableRawPointer, isMainActorJob: Bool) -> Bool {
        let jobTask = cadence_job_task_id(job)
        let marked = cadence_thread_session()
        let executor: SessionExecutor? = registry.withLock { registry in
            guard !registry.tasksOfSession.isEmpty else { return nil }
            if jobTask != 0, let known = registry.sessionOfTask[jobTask] { return known }
            // The enqueuing task's session first (inside a nested session, the drain running it may be the outer
            // one's), then the session whose drain this thread is running.
            let current = cadence_current_task_id()
            let enqueuer =
                (current == 0 ? nil : registry.sessionOfTask[current])
                ?? marked.map { Unmanaged<SessionExecutor>.fromOpaque($0).takeUnretainedValue() }
            guard let enqueuer, registry.tasksOfSession[ObjectIdentifier(enqueuer)] != nil else { return nil }
            if jobTask != 0 {
                registry.sessionOfTask[jobTask] = enqueuer
                registry.tasksOfSession[ObjectIdentifier(enqueuer), default: []].append(jobTask)
            }
            return enqueuer
        }
        guard let executor else { return SettleWatch.take(job, isMainActorJob: isMainActorJob) }
        if marked == nil { executor.noticeEscape() }
        // A job is the runtime's `Job *`, the same pointer `UnownedJob` wraps.
        return executor.accept(
            Entry(
                job: unsafeBitCast(job, to: UnownedJob.self), isMainActorJob: isMainActorJob,
                task: cadence_job_resumed_task(job), isTask: jobTask != 0
            ), taskID: jobTask)
    }

    /// Starts routing: from now on the running task (the session's body) and the tasks it creates are the session's.
    /// The session's jobs are drained from the body's side: the main queue when `onMainActor` (the body is isolated to
    /// the main actor), else the session's own thread.
    ///
    /// - Returns: false when this runtime cannot route jobs; the session then runs its tasks where the runtime does.
    package func begin(onMainActor: Bool = false) -> Bool {
        guard Self.isAvailable else { return false }
        let body = cadence_current_task_id()
        Self.registry.withLock { registry in
            var tasks: [UInt64] = []
            if body != 0 {
                // A session begun inside another one takes the body over until it ends.
                if let outer = registry.sessionOfTask[body] {
                    registry.outerSessionOfBody[ObjectIdentifier(self)] = (body, outer)
                }
                registry.sessionOfTask[body] = self
                tasks.append(body)
            }
            registry.tasksOfSession[ObjectIdentifier(self)] = tasks
        }
        let outer = Self.registry.withLock { $0.outerSessionOfBody[ObjectIdentifier(self)]?.session }
        state.withLock { state in
            state.bodyTask = body
            state.home = onMainActor ? .main : .queue
            state.outer = outer
            state.holdsHook = true
        }
        if let replaced = cadence_acquire_global_hook(true) { reportHookReplaced(by: replaced) }
        return true
    }

    /// Whether a replaced hook was reported in this process: it is reported once.
    private static let hookReplacementReported = Locked(false)

    /// Reports, once in the process, that another library replaced Cadence's global enqueue hook while a session held
    /// it, leaving `hook` in its place.
    private func reportHookReplaced(by hook: UnsafeMutableRawPointer) {
        guard
            Self.hookReplacementReported.withLock({ reported in
                defer { reported = true }
                return !reported
            })
        else { return }
        // The loader names only exported symbols; a hook in the test's own executable is known by its address.
        let name = cadence_symbol_name(hook).map { String(cString: $0) } ?? "\(hook)"
        reporter.report(
            "While a virtual-time session ran, another library replaced the Swift runtime's global enqueue hook that "
                + "Cadence holds for its sessions (swift_task_enqueueGlobal_hook, now \(name)); swift-concurrency-"
                + "extras' withMainSerialExecutor does when it starts inside a session. Until a session puts "
                + "Cadence's back, the session's tasks may run where that hook sends them, off virtual time, and the "
                + "other library may leave its hook in place for the rest of the process. Start the other library's "
                + "scope outside withVirtualTime (or the .virtualTime trait), not inside it."
        )
    }

    /// Reports, once, a task of the session running on an executor the session does not drive — an actor with a
    /// custom `SerialExecutor` — when the task enqueues a job from there (a hop back, a task it starts, a continuation
    /// it resumes): the runtime enqueues on such an executor past every hook, so the session can neither wait for its
    /// jobs nor run them in order, and sees the task again only then. Called for a job of the session enqueued on a
    /// thread that runs no session's jobs. Work of no session on such an executor (another actor's task resuming one of
    /// the session's continuations) is the test's outside world, as a real queue is, and is not reported.
    private func noticeEscape() {
        let running = cadence_current_executor()
        guard let identity = running.identity, running.implementation != 0, !cadence_is_main_executor(running)
        else { return }
        // The task running there (none once it has left for another executor) must be the session's.
        let current = cadence_current_task_id()
        guard current == 0 || Self.registry.withLock({ $0.sessionOfTask[current] }) === self,
            state.withLock({ state in
                defer { state.escapeReported = true }
                return !state.escapeReported && !state.hasEnded
            })
        else { return }
        let executor = Unmanaged<AnyObject>.fromOpaque(identity).takeUnretainedValue()
        reporter.report(
            "A task of the test ran on an executor that virtual time does not drive (\(type(of: executor)), the "
                + "custom SerialExecutor of an actor): the Swift runtime hands such an executor its jobs directly, so "
                + "the test's advances neither waited for that task nor ran it in order with the others, and what it "
                + "did there happened at no fixed tick. In the test, give the actor the default executor (drop its "
                + "unownedExecutor), or inject the work behind a protocol."
        )
    }

    /// Takes `entry` into the queue, unless the session has ended; `taskID` is the task the job is, if it is one.
    private func accept(_ entry: Entry, taskID: UInt64 = 0) -> Bool {
        let accepted: (post: Bool, taskResumed: (@Sendable (UInt64) -> Void)?)? = state.withLock { state in
            guard !state.hasEnded else { return nil }
            state.jobs.append(entry)
            state.accepted &+= 1
            let taskResumed = taskID == 0 ? nil : state.taskResumed
            guard !state.isDraining else { return (false, taskResumed) }
            state.isDraining = true
            return (true, taskResumed)
        }
        guard let accepted else { return false }
        accepted.taskResumed?(taskID)
        if accepted.post { startDraining() }
        return true
    }

    // MARK: Draining

    /// Posts the drain (`isDraining` was just set): a session this one runs inside counts it as busy until it stops.
    private func startDraining() {
        state.withLock { $0.outer }?.innerSessionStarted()
        postDrain()
    }

    /// The drain has stopped (`isDraining` was just cleared).
    private func stoppedDraining() {
        state.withLock { $0.outer }?.innerSessionStopped()
    }

    private func innerSessionStarted() {
        state.withLock { $0.busyInnerSessions += 1 }
    }

    /// Drains again what waited while sessions begun inside this one were busy, once none is.
    private func innerSessionStopped() {
        let post: Bool = state.withLock { state in
            state.busyInnerSessions -= 1
            guard state.busyInnerSessions == 0, !state.isDraining, !state.hasEnded,
                state.readyCount > 0 || !state.waiters.isEmpty
            else { return false }
            state.isDraining = true
            return true
        }
        if post { startDraining() }
    }

    /// Posts the drain to the session's home side.
    private func postDrain() {
        if state.withLock({ $0.home }) == .main {
            DispatchQueue.main.async { self.drain(on: .main) }
        } else {
            let delivered = send(.drain, to: .queue)
            require(delivered, "Cadence: a session's thread left")
        }
    }

    private enum Step {
        case run(Entry)
        /// The next job is the other side's: the other side runs its jobs, this side waits.
        case handOver
        case wake(UnsafeContinuation<Void, Never>, busy: (origin: String, ready: Int)?)
        /// A session begun inside this one is draining: this one waits until it stops.
        case pause
        /// The queue is empty; `stall` is what a stall check needs when the session's clock watches for stalls.
        case stop(stall: (body: UInt64, accepted: UInt64, watch: StallWatch)?)
    }

    /// Runs the session's jobs in order from the session's home side: its own jobs here, the other side's there while
    /// this side waits; wakes one idle waiter whenever no job is ready.
    private func drain(on side: Side) {
        let previous = cadence_set_thread_session(mark)
        defer { _ = cadence_set_thread_session(previous) }
        while true {
            let tick = chooser == nil ? 0 : now()
            let step: Step = state.withLock { state in
                if let chooser { state.chooseHead(chooser, tick: tick) }
                if state.busyInnerSessions > 0 {
                    state.isDraining = false
                    return .pause
                }
                if !state.waiters.isEmpty, state.jobsSinceIdle >= Self.jobLimit, state.readyCount > 0 {
                    state.jobsSinceIdle = 0
                    state.waitGaveUp = true
                    let origin = state.waiterOrigins.removeFirst()
                    let waiter = state.waiters.removeFirst()
                    guard let origin, !state.runawayReported else { return .wake(waiter, busy: nil) }
                    state.runawayReported = true
                    return .wake(waiter, busy: (origin, state.readyCount))
                }
                if let next = state.next {
                    guard Self.side(of: next) == side else { return .handOver }
                    _ = state.popJob()
                    state.jobsSinceIdle += state.charge(next)
                    return .run(next)
                }
                state.jobsSinceIdle = 0
                state.nestedRunGaveUp = false
                state.runawayReported = false
                state.waitGaveUp = false
                if !state.waiters.isEmpty {
                    state.waiterOrigins.removeFirst()
                    return .wake(state.waiters.removeFirst(), busy: nil)
                }
                state.isDraining = false
                guard let watch = state.stallWatch, state.bodyTask != 0 else { return .stop(stall: nil) }
                return .stop(stall: (state.bodyTask, state.accepted, watch))
            }
            switch step {
            case .run(let entry):
                run(entry)
            case .handOver:
                _ = handOver(to: side.other, limit: nil)
            case .wake(let waiter, let busy):
                if let busy { reportBusy(origin: busy.origin, ready: busy.ready) }
                waiter.resume()
            case .pause:
                stoppedDraining()
                return
            case .stop(let stall):
                stoppedDraining()
                if let stall { armStallCheck(body: stall.body, accepted: stall.accepted, watch: stall.watch) }
                return
            }
        }
    }

    private static func side(of entry: Entry) -> Side { entry.isMainActorJob ? .main : .queue }

    /// Runs ready jobs of `side` here, one after the other while the next one is of this side: at most `limit` (as
    /// ``State/charge(_:)`` counts them), or with no limit until a waiter has waited ``jobLimit`` jobs (where the
    /// drain stops to report it). Returns how many ran, so counted.
    private func runStretch(on side: Side, limit: Int?) -> Int {
        var ran = 0
        while true {
            let tick = chooser == nil ? 0 : now()
            let entry: Entry? = state.withLock { state in
                if let chooser { state.chooseHead(chooser, tick: tick) }
                guard state.busyInnerSessions == 0, let next = state.next, Self.side(of: next) == side else {
                    return nil
                }
                if let limit {
                    guard ran < limit else { return nil }
                    ran += state.charge(next)
                } else {
                    guard state.waiters.isEmpty || state.jobsSinceIdle < Self.jobLimit else { return nil }
                    state.jobsSinceIdle += state.charge(next)
                }
                return state.popJob()
            }
            guard let entry else { return ran }
            run(entry)
        }
    }

    /// Has `other` side run a stretch of its jobs (see ``runStretch(on:limit:)``) and waits for it to end, running
    /// here any stretch the other side asks for meanwhile (a job there may let jobs run too). Returns how many jobs
    /// the other side ran.
    ///
    /// The two sides take turns: while one runs a job, the other waits in here or is not in the session at all, so
    /// the session's jobs still run one at a time, in order. A side that ran a stretch it was asked for lingers a
    /// moment for the next one before it leaves (see ``linger(on:)``), so a test whose tasks hop between the main
    /// actor and the rest pays a thread wake-up only now and then.
    private func handOver(to other: Side, limit: Int?) -> Int {
        let mine = other.other
        let wasAbsent = slots.replace(mine, MailSlots.absent, with: MailSlots.waiting)
        defer {
            if wasAbsent {
                let left = slots.replace(mine, MailSlots.waiting, with: MailSlots.absent)
                require(left, "Cadence: a session's side left with mail unread")
            }
        }
        if !send(.runStretch(limit: limit), to: other) {
            let work: @Sendable () -> Void = {
                let previous = cadence_set_thread_session(self.mark)
                let ran = self.runStretch(on: other, limit: limit)
                let came = self.slots.replace(other, MailSlots.absent, with: MailSlots.waiting)
                require(came, "Cadence: a session's side was there twice")
                let delivered = self.send(.done(ran: ran), to: mine)
                require(delivered, "Cadence: a session's side left before its stretch was over")
                self.linger(on: other)
                _ = cadence_set_thread_session(previous)
            }
            require(other == .main, "Cadence: a session's thread left")
            DispatchQueue.main.async(execute: work)
        }
        while true {
            switch takeMail(on: mine, lingering: false) {
            case .done(let ran)?:
                return ran
            case .runStretch(let limit)?:
                let delivered = send(.done(ran: runStretch(on: mine, limit: limit)), to: other)
                require(delivered, "Cadence: a session's side left before its stretch was over")
            case .drain?:
                requirementFailure("Cadence: a session's thread was told to drain while its drain was running")
            case nil:
                continue
            }
        }
    }

    /// After a stretch the other side asked for: waits a moment for the next request and runs it, and leaves once
    /// none came.
    private func linger(on side: Side) {
        while case .runStretch(let limit)? = takeMail(on: side, lingering: true) {
            let delivered = send(.done(ran: runStretch(on: side, limit: limit)), to: side.other)
            require(delivered, "Cadence: a session's side left before its stretch was over")
        }
    }

    /// How long a side waits for mail before it sleeps on its bell, or leaves when it is lingering: ten microseconds,
    /// about what a thread takes to wake up, so that a side quick to answer is answered without a wake-up.
    private static let spinNanoseconds: UInt64 = 10_000

    /// Waits for this side's mail and takes it: nil when lingering and none came (the side has left).
    private func takeMail(on side: Side, lingering: Bool) -> Mail? {
        Self.takeMail(from: slots.word(side), bell: bells[side], spin: Self.spinNanoseconds, lingering: lingering)
    }

    /// Waits for the mail of the slot `word`, spinning `spin` nanoseconds before it sleeps on `bell` (or leaves, when
    /// lingering), and takes it.
    fileprivate static func takeMail(
        from word: UnsafeMutablePointer<Int>, bell: DispatchSemaphore, spin: UInt64, lingering: Bool
    ) -> Mail? {
        let deadline = DispatchTime.now().uptimeNanoseconds + spin
        var spins = 0
        while true {
            let mail = cadence_atomic_load(word)
            if mail >= 2 {
                if cadence_atomic_compare_exchange(word, mail, MailSlots.waiting) { return Mail(word: mail) }
                continue
            }
            spins += 1
            if spins & 63 != 0 || DispatchTime.now().uptimeNanoseconds < deadline {
                cadence_spin_pause()
                continue
            }
            if lingering {
                if cadence_atomic_compare_exchange(word, MailSlots.waiting, MailSlots.absent) { return nil }
            } else if cadence_atomic_compare_exchange(word, MailSlots.waiting, MailSlots.asleep) {
                bell.wait()
            }
        }
    }

    /// Puts `mail` in the slot of `side`, ringing its bell if it sleeps; false if the side is absent (nothing sent).
    private func send(_ mail: Mail, to side: Side) -> Bool {
        Self.send(mail, to: slots.word(side), bell: bells[side])
    }

    fileprivate static func send(_ mail: Mail, to word: UnsafeMutablePointer<Int>, bell: DispatchSemaphore) -> Bool {
        while true {
            let state = cadence_atomic_load(word)
            require(state < 2, "Cadence: a session's side was sent two pieces of mail")
            if state == MailSlots.absent { return false }
            if cadence_atomic_compare_exchange(word, state, mail.word) {
                if state == MailSlots.asleep { bell.signal() }
                return true
            }
        }
    }

    /// Serves mail that came to the session's thread at its top level: a drain, or a stretch the main side asked for.
    fileprivate func serve(_ mail: Mail) {
        let previous = cadence_set_thread_session(mark)
        defer { _ = cadence_set_thread_session(previous) }
        switch mail {
        case .drain:
            drain(on: .queue)
        case .runStretch(let limit):
            let delivered = send(.done(ran: runStretch(on: .queue, limit: limit)), to: .main)
            require(delivered, "Cadence: a session's side left before its stretch was over")
        case .done:
            requirementFailure("Cadence: a session's thread was told a stretch was over that it never asked for")
        }
    }

    // MARK: Stalls

    /// How the session's clock answers a stall check: whether any task sleeps on it, and what ends the stall,
    /// reporting why.
    package struct StallWatch: Sendable {
        /// Whether any task sleeps on the clock.
        package let anySleeps: @Sendable () -> Bool
        /// Ends the stall of the body, `task`: its own sleep, or the sleeps it waits behind.
        package let breakStall: @Sendable (_ task: UInt64) -> Void

        package init(
            anySleeps: @escaping @Sendable () -> Bool,
            breakStall: @escaping @Sendable (_ task: UInt64) -> Void
        ) {
            self.anySleeps = anySleeps
            self.breakStall = breakStall
        }
    }

    /// How long, in wall-clock time, the session's body may sleep on the session's clock with nothing of the session
    /// ready to run before it is taken for stalled: a second — long enough for a real queue or another thread that
    /// advances the clock to come in, short enough that a test stops long before anyone wonders why it hangs.
    package static let stallGrace: DispatchTimeInterval = .seconds(1)

    /// From now until the session ends, whenever the session goes idle while its body waits and a task sleeps on the
    /// session's clock — so nothing of the session can advance the clock — and stays so for ``stallGrace``, `watch`
    /// breaks the stall.
    package func watchForStalls(_ watch: StallWatch) {
        state.withLock { state in
            if !state.hasEnded { state.stallWatch = watch }
        }
    }

    /// Checks again after ``stallGrace`` if a task sleeps on the clock now that the queue is empty while the body
    /// waits (the body's own sleep, or one it waits behind: a task's value, a function that sleeps). A session idle
    /// with its body waiting is rare in a test that works, so the check costs nothing otherwise.
    private func armStallCheck(body: UInt64, accepted: UInt64, watch: StallWatch) {
        guard watch.anySleeps() else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.stallGrace) {
            let stalled = self.state.withLock { state in
                !state.hasEnded && !state.isDraining && state.accepted == accepted && state.readyCount == 0
            }
            if stalled, watch.anySleeps() { watch.breakStall(body) }
        }
    }

    /// Runs one job where the runtime would have: a main-actor job on the main actor's executor, any other job on no
    /// actor (the global executor's terms).
    private func run(_ entry: Entry) {
        if entry.isMainActorJob {
            entry.job.runSynchronously(on: MainActor.sharedUnownedExecutor)
        } else if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            // On no actor, with Cadence's task executor as the current one: what asks for the current executor
            // rather than enqueueing through the runtime (`Task.yield()`) comes back to the session too.
            entry.job.runSynchronously(on: SessionTaskExecutor.shared.asUnownedTaskExecutor())
        } else {
            cadence_run_job_on_generic_executor(unsafeBitCast(entry.job, to: UnsafeMutableRawPointer.self))
        }
    }

    private func reportBusy(origin: String, ready: Int) {
        reporter.report(
            "\(origin) stopped waiting for the test's tasks after running \(Self.jobLimit.formatted) jobs "
                + "at tick \(now()) with \(ready == 1 ? "1 job" : "\(ready.formatted) jobs") still ready to run: a "
                + "task that never suspends on the clock and never finishes (a loop of Task.yield()?) never lets the "
                + "test go idle. It is left running; make it sleep on the clock, await something, or finish."
        )
    }

    // MARK: Sleeps on the system's clocks

    /// Puts the job that wakes a sleeper `ticks` ahead on the session's virtual clock; `sleeper` is the sleeping
    /// task, retained (see `cadence_retain_current_task`), to cancel if the clock ends first.
    package typealias SystemSleepScheduler =
        @Sendable (_ wake: UnownedJob, _ ticks: Int64, _ sleeper: UnsafeMutableRawPointer?) -> Void

    /// From now until the session ends, the sleeps of its tasks on `ContinuousClock` and `SuspendingClock` (and
    /// `Task.sleep`, which sleeps on the continuous clock) go to `scheduler` instead of the wall clock, and
    /// `taskResumed` is told of each job of a task the session takes, by task identifier, before it runs.
    package func virtualizeSystemSleeps(
        with scheduler: @escaping SystemSleepScheduler,
        taskResumed: @escaping @Sendable (_ task: UInt64) -> Void
    ) {
        state.withLock { state in
            guard !state.hasEnded else { return }
            state.systemSleeps = scheduler
            state.taskResumed = taskResumed
        }
    }

    /// Takes a sleep of the running task onto the virtual clock of its session, if the task is a session's and the
    /// session virtualises the system's clocks; false leaves the sleep to the runtime.
    static func scheduleSystemSleep(_ wake: UnownedJob, afterTicks ticks: Int64) -> Bool {
        let current = cadence_current_task_id()
        guard current != 0, let session = registry.withLock({ $0.sessionOfTask[current] }),
            let scheduler = session.state.withLock({ $0.systemSleeps })
        else { return false }
        scheduler(wake, ticks, cadence_retain_current_task())
        return true
    }

    /// Runs the job that wakes a sleeper as a job of the session, or on the runtime's executor once the session has
    /// ended.
    package func wake(_ job: UnownedJob) {
        if !accept(Entry(job: job, isMainActorJob: false, task: nil)) {
            cadence_enqueue_global(unsafeBitCast(job, to: UnsafeMutableRawPointer.self))
        }
    }

    // MARK: Waiting and ending

    /// Suspends until every other job of the session has run and none is ready: each of the session's tasks is
    /// suspended (on the clock, on a continuation nobody has resumed yet) or finished. The caller resumes as a job
    /// of the session, where its isolation says: on the main queue for the main actor, on the session's thread else.
    ///
    /// Gives up after ``jobLimit`` jobs with some still ready, reporting it as the work of `origin` — unless `origin`
    /// is nil or such a task was reported already since the session was last idle. After ``end()`` it returns at
    /// once.
    nonisolated(nonsending) package func waitUntilIdle(origin: String?) async {
        // Called from outside the session (the body on the thread its test started on), the caller would register
        // and could be resumed before it has suspended, and then go on where it was, outside the session: it enters
        // the session first.
        if cadence_thread_session() != mark {
            await enterSession()
        }
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
            if post { startDraining() }
        }
    }

    /// Moves the running task, which runs outside the session, into it: from its next job on, it runs as a job of
    /// the session, where its isolation says.
    ///
    /// The task enters through a task-executor preference: calling a `@concurrent` function under it makes the
    /// runtime enqueue the task itself, once it has left this thread, on ``SessionTaskExecutor`` — which hands it to
    /// the session — and coming back enqueues it again, through the runtime's hooks, to the session. A
    /// `Task.yield()` off the main actor would not do: its job goes to the global executor past every hook, and may
    /// resume the task before the task has suspended, which then goes on here, outside the session, while the
    /// session already runs the tasks the body starts (seen under ThreadSanitizer: a replayed schedule met other
    /// choices). Before the runtime had preferences, the yield is what there is.
    nonisolated(nonsending) private func enterSession() async {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            _ = await withTaskExecutorPreference(SessionTaskExecutor.shared) { await Self.sessionOfThread() }
        } else {
            await Task.yield()
        }
    }

    /// The session whose jobs this thread runs, asked off every actor (where a task-executor preference applies):
    /// ``enterSession()`` calls it for the hop, and asks the thread something so that the compiler keeps the hop.
    @concurrent private static func sessionOfThread() async -> UnsafeMutableRawPointer? {
        cadence_thread_session()
    }

    /// Whether this runtime gives the running task back after a job run nested in it (Swift 6.2 and later); an older
    /// one would leave the outer job with no current task.
    private static let canRunJobsNested = cadence_can_run_jobs_nested()

    /// Runs the session's ready jobs now, one after the other, until none is ready — when called from inside one of
    /// the session's jobs; elsewhere it runs nothing. The jobs of this side run here, the other side's there while this
    /// one waits (see `handOver(to:limit:)`).
    ///
    /// This is how a synchronous step of the DSL lets the test's tasks run while it drives the clock: the step runs
    /// inside a job of the session (the test's body, or a task of it), so the jobs it runs run nested in that one,
    /// each to its next suspension, as the drain would have run them once the body suspended. Waiters are left to the
    /// drain. Gives up after ``jobLimit`` jobs with some still ready, reporting it as the work of `origin`; until the
    /// queue is next empty, later calls then run nothing (the task that never suspends is reported once).
    package func runReadyJobs(origin: @autoclosure () -> String) {
        guard Self.canRunJobsNested, cadence_thread_session() == mark else { return }
        let side = currentSide
        var ran = 0
        while ran < Self.jobLimit {
            let tick = chooser == nil ? 0 : now()
            let nextSide: Side? = state.withLock { state in
                if state.nestedRunGaveUp || state.busyInnerSessions > 0 { return nil }
                if let chooser { state.chooseHead(chooser, tick: tick) }
                guard let next = state.next else {
                    state.nestedRunGaveUp = false
                    return nil
                }
                return Self.side(of: next)
            }
            guard let nextSide else { return }
            ran +=
                nextSide == side
                ? runStretch(on: side, limit: Self.jobLimit - ran)
                : handOver(to: nextSide, limit: Self.jobLimit - ran)
        }
        let ready: Int = state.withLock { state in
            guard state.readyCount > 0 else { return 0 }
            state.nestedRunGaveUp = true
            defer { state.runawayReported = true }
            return state.runawayReported ? 0 : state.readyCount
        }
        if ready > 0 { reportBusy(origin: origin(), ready: ready) }
    }

    /// Whether a task that never suspends was reported since the session was last idle (and so is still spinning).
    package var hasReportedRunaway: Bool { state.withLock { $0.runawayReported } }

    /// Stops taking jobs: from now on the session's tasks run where the runtime sends them. Jobs still waiting to
    /// run — of a task that never suspends — are handed back to the runtime, their tasks cancelled first so that a
    /// loop that checks for cancellation ends; idle waiters are resumed.
    ///
    /// - Returns: how many jobs were still ready to run.
    @discardableResult
    package func end() -> Int {
        end(ifIdle: false) ?? 0
    }

    /// How many times ``endWhenIdle()`` lets jobs that came in after the session went idle run before it ends the
    /// session anyway.
    private static let lateRounds = 100

    /// Waits until the session is idle, as ``waitUntilIdle(origin:)`` does reporting nothing, and ends it then. A job
    /// that comes in after the wait (a task resumed from another thread, a reporter's task finishing) runs first, in a
    /// wait of its own, rather than being taken for a task that never suspends; once a wait gave up on such a task,
    /// the session ends with its jobs still ready.
    ///
    /// - Returns: how many jobs were still ready to run when the session ended.
    nonisolated(nonsending) package func endWhenIdle() async -> Int {
        for _ in 0..<Self.lateRounds {
            await waitUntilIdle(origin: nil)
            if let left = end(ifIdle: true) { return left }
            if state.withLock({ $0.waitGaveUp }) { break }
        }
        return end()
    }

    /// Ends the session (see ``end()``), unless `ifIdle` and a job is ready to run: then returns nil.
    private func end(ifIdle: Bool) -> Int? {
        let ended: (left: [Entry], waiters: [UnsafeContinuation<Void, Never>])? = state.withLock { state in
            guard !state.hasEnded else { return ([], []) }
            if ifIdle, state.readyCount > 0 { return nil }
            state.hasEnded = true
            state.systemSleeps = nil
            state.taskResumed = nil
            state.stallWatch = nil
            let left = Array(state.jobs[state.head...])
            state.jobs = []
            state.head = 0
            defer {
                state.waiters = []
                state.waiterOrigins = []
            }
            return (left, state.waiters)
        }
        guard let (left, waiters) = ended else { return nil }
        let holdsHook: Bool = state.withLock { state in
            defer { state.holdsHook = false }
            return state.holdsHook
        }
        if holdsHook, let replaced = cadence_release_global_hook(true) { reportHookReplaced(by: replaced) }
        Self.registry.withLock { registry in
            for task in registry.tasksOfSession.removeValue(forKey: ObjectIdentifier(self)) ?? []
            where registry.sessionOfTask[task] === self {
                registry.sessionOfTask[task] = nil
            }
            if let (body, outer) = registry.outerSessionOfBody.removeValue(forKey: ObjectIdentifier(self)),
                registry.tasksOfSession[ObjectIdentifier(outer)] != nil
            {
                registry.sessionOfTask[body] = outer
            }
        }
        for entry in left {
            if let task = entry.task { cadence_cancel_task(task) }
            if entry.isMainActorJob {
                let job = entry.job
                DispatchQueue.main.async { job.runSynchronously(on: MainActor.sharedUnownedExecutor) }
            } else {
                cadence_enqueue_global(unsafeBitCast(entry.job, to: UnsafeMutableRawPointer.self))
            }
        }
        for waiter in waiters { waiter.resume() }
        return left.count
    }
}

/// A thread that runs the jobs of a session that are not the main actor's: off the main queue, as the cooperative pool
/// would run them, and one at a time. A session has one from a pool for its whole life, and gives it back when it is
/// freed; an idle thread spins a moment on its mail slot before it sleeps, so that the next session (or the next
/// stretch of the same one) finds it awake.
private final class SessionThread: @unchecked Sendable {
    /// The thread's mail slot (see `SessionExecutor.MailSlots`): allocated once, for the life of the thread.
    let slot: UnsafeMutablePointer<Int>
    /// Rung when mail comes while the thread sleeps.
    let bell = DispatchSemaphore(value: 0)
    /// The session the thread serves, held weakly: the session gives the thread back when it is freed.
    private let session = Locked(WeakSession())

    private struct WeakSession {
        weak var executor: SessionExecutor?
    }

    private static let idle = Locked([SessionThread]())

    /// How long an idle thread spins before it sleeps: fifty microseconds, enough for a test's next session to
    /// begin on a warm thread.
    private static let spinNanoseconds: UInt64 = 50_000

    private init() {
        slot = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        slot.initialize(to: SessionExecutor.MailSlots.waiting)
    }

    /// An idle thread, or a new one.
    static func lease() -> SessionThread {
        if let thread = idle.withLock({ $0.popLast() }) { return thread }
        let thread = SessionThread()
        let runner = Thread { thread.run() }
        runner.name = "Cadence session thread"
        runner.start()
        return thread
    }

    /// Serves `executor` from now on.
    func serve(_ executor: SessionExecutor) {
        session.withLock { $0.executor = executor }
    }

    /// Back to the pool: called when the session is freed, and so runs no job here any more.
    func release() {
        session.withLock { $0.executor = nil }
        Self.idle.withLock { $0.append(self) }
    }

    private func run() {
        cadence_mark_session_thread()
        while true {
            guard
                let mail = SessionExecutor.takeMail(
                    from: slot, bell: bell, spin: Self.spinNanoseconds, lingering: false
                )
            else { continue }
            guard let executor = session.withLock({ $0.executor }) else {
                requirementFailure("Cadence: a session's thread got mail from a session that was gone")
            }
            executor.serve(mail)
        }
    }
}

/// The main actor's executor while Cadence routes jobs: the main dispatch queue, as the runtime's own, except that a
/// job of a virtual-time session's task goes to the session.
///
/// Swift 6.2 and later put a main-actor job straight on the main dispatch queue, where no enqueue hook sees it; the
/// runtime's main-executor hooks let Cadence answer with this executor instead, so every main-actor job passes here.
final class MainActorExecutor: SerialExecutor {
    static let shared = MainActorExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if SessionExecutor.routeMainActorJob(job) { return }
        DispatchQueue.main.async { job.runSynchronously(on: MainActorExecutor.shared.asUnownedSerialExecutor()) }
    }

    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(.main))
    }

    /// Whether the running code is on the main queue, as the runtime asks before `checkIsolated()`: answered without
    /// trapping, so that `MainActor.assumeIsolated` off the main actor fails as it does in production ("Incorrect
    /// actor executor assumption"), and a check that may fail (`isIsolated`-like questions) gets `false`.
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    func isIsolatingCurrentContext() -> Bool? {
        DispatchQueue.getSpecific(key: Self.mainQueueKey) == true
    }

    /// A key only the main queue has a value for.
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()
}

/// The task executor a session's jobs run with when they run on no actor: `Task.yield()` and other code that enqueues on
/// `Task.currentExecutor` rather than through the runtime find it, so their jobs come back to the session; a job of no
/// session goes on to the global concurrent executor.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class SessionTaskExecutor: TaskExecutor {
    static let shared = SessionTaskExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if SessionExecutor.route(unsafeBitCast(job, to: UnsafeMutableRawPointer.self), isMainActorJob: false) {
            return
        }
        globalConcurrentExecutor.enqueue(ExecutorJob(job))
    }
}
