import Cadence
import CadenceSupport

/// What a virtual-time session (`.virtualTime`, `withVirtualTime`) found when its body returned, as data.
struct SessionProblem {
    /// How the session is written: `".virtualTime"` or `"withVirtualTime"`.
    let api: String
    /// What the session wraps: `"test body"` or `"body"`.
    let bodyName: String
    let kind: Kind

    enum Kind {
        /// The horizon was negative; only the work due at `returnedAt` ran.
        case negativeHorizon(Duration, returnedAt: Int64)
        /// Work due inside the horizon, at the sorted `ticks`, was scheduled after the drain found the clock idle.
        case stragglers(ticks: [Int64])
        /// The body returned at `returnedAt` and left on the clock, once the work due then had run, the `tasks` asleep
        /// on it (earliest deadline first), one-shot actions due at the sorted `actions` and repeating actions next due
        /// at the sorted `repeating`; a failure, unless leftovers are allowed.
        case leftBehind(returnedAt: Int64, tasks: [SleepingTask], actions: [Int64], repeating: [Int64])
        /// Scheduled actions due at the sorted `ticks`, and tasks asleep on the clock until the sorted `sleeps`, never
        /// ran; a failure when `fails`, else a note (leftovers allowed).
        case neverRan(ticks: [Int64], sleeps: [Int64], busy: Busy, fails: Bool)
        /// `jobs` jobs of the body's tasks were still ready to run when the session ended (a task that never
        /// suspends); they were cancelled and handed back to the runtime.
        case tasksStillReady(jobs: Int)
        /// Tasks the body started were still alive, suspended off the clock, when the session ended; a failure when
        /// `fails`, else a note (leftovers allowed).
        case tasksStillAlive(fails: Bool)
        /// `systemClocks: .virtual` was asked for where such sleeps cannot be taken onto the virtual clock, for the
        /// reason given.
        case systemClocksStayReal(SystemSleepSupport)
    }

    /// A task the body left asleep on the clock: what it sleeps in, where (known only for a sleep called on the
    /// `VirtualClock` itself), since which tick and until which.
    struct SleepingTask {
        let origin: String
        let location: SourceCodeLocation?
        let since: Int64
        let until: Int64
    }

    /// Why the drain stopped with work left.
    enum Busy {
        /// It ran `ran` actions, the limit, from `returnedAt` to `stoppedAt`.
        case actionLimit(ran: Int, returnedAt: Int64, stoppedAt: Int64)
        /// It reached the end of the horizon after the body returned at `returnedAt`.
        case horizon(Duration, returnedAt: Int64)
    }
}

/// Every sentence a virtual-time session reports.
enum SessionText {
    /// The message for `problem`.
    static func message(_ problem: SessionProblem) -> String {
        let api = problem.api
        let body = problem.bodyName
        switch problem.kind {
        case let .negativeHorizon(horizon, returnedAt):
            return "\(api)(horizon:) was given a negative horizon (\(VirtualTicks.describe(horizon))); time never "
                + "goes backwards, so only the work already due when the \(body) returned (at tick \(returnedAt)) ran."
        case let .stragglers(ticks):
            let work = "\(counted(ticks.count, "scheduled action")), due at \(self.ticks(ticks)),"
            let verb = ticks.count == 1 ? "was" : "were"
            return "\(capitalised(work)) \(verb) scheduled after the virtual clock had been drained — by a task the "
                + "\(body) started and did not await? Await or cancel the tasks the \(body) starts before it returns."
        case let .leftBehind(returnedAt, tasks, actions, repeating):
            var lines = ["The \(body) returned at tick \(returnedAt) and left work on the virtual clock:"]
            for task in tasks {
                let at = task.location.map { " at \($0.fileID):\($0.line)" } ?? ""
                lines.append(
                    "  a task asleep in \(task.origin)\(at), since tick \(task.since), until tick \(task.until)"
                )
            }
            if !actions.isEmpty {
                lines.append("  \(counted(actions.count, "scheduled action")), due at \(self.ticks(actions))")
            }
            if !repeating.isEmpty {
                lines.append(
                    "  \(counted(repeating.count, "repeating action")), next due at \(self.ticks(repeating))"
                )
            }
            lines.append(
                "Finish, cancel or await that work before the \(body) returns, or let this test leave it with "
                    + "\(api)(leftovers: .allowed)."
            )
            return lines.joined(separator: "\n")
        case let .neverRan(ticks, sleeps, busy, fails):
            let busyText: String
            let hint: String
            switch busy {
            case let .actionLimit(ran, returnedAt, stoppedAt):
                busyText =
                    "the virtual clock was still busy after running \(counted(ran, "action")) since the "
                    + "\(body) returned (at tick \(returnedAt); it stopped at tick \(stoppedAt))"
                hint = ""
            case let .horizon(horizon, returnedAt):
                busyText =
                    "the virtual clock was still busy \(VirtualTicks.literal(horizon)) after the \(body) "
                    + "returned (at tick \(returnedAt))"
                hint = ", or give \(api)(horizon:) a longer horizon"
            }
            let asleep =
                sleeps.isEmpty
                ? nil
                : "\(counted(sleeps.count, "task")) asleep on the clock until "
                    + self.ticks(sleeps)
            guard !ticks.isEmpty else {
                // Only sleeps are left: a task the body started and left behind, not a timer.
                let sleepers = asleep ?? ""
                if fails {
                    return "\(capitalised(sleepers)) never woke: \(busyText). Cancel the work the \(body) leaves "
                        + "behind\(hint)."
                }
                return "\(capitalised(busyText)): \(sleepers) never woke. A task the \(body) started and left "
                    + "asleep? Cancel or await it before the \(body) returns\(hint)."
            }
            let actions = "\(counted(ticks.count, "scheduled action")), due at \(self.ticks(ticks)),"
            let work = asleep.map { "\(actions) and \($0)" } ?? actions
            if fails {
                return "\(capitalised(work)) never ran: \(busyText). Cancel the work the \(body) leaves behind\(hint)."
            }
            return "\(capitalised(busyText)): \(work) never ran. An endless repeating timer, or work that keeps "
                + "rescheduling itself? Cancel it before the \(body) returns\(hint)."
        case let .tasksStillReady(jobs):
            let verb = jobs == 1 ? "was" : "were"
            return "\(capitalised(counted(jobs, "job"))) of the tasks the \(body) started \(verb) still ready to run "
                + "when it ended: a task that never suspends on the clock and never finishes (a loop of "
                + "Task.yield()?). \(jobs == 1 ? "Its task was" : "Their tasks were") cancelled and handed back to the "
                + "Swift runtime, off virtual time; make such a task sleep on the clock, await something, or finish."
        case let .systemClocksStayReal(support):
            let lack =
                switch support {
                case .notInAppleSDKs:
                    "executors that take delayed jobs, which Apple's SDKs do not offer yet (Swift 6.3's "
                        + "SchedulingExecutor is behind an SPI of the standard library that they do not ship)"
                case .runtimeTooOld, .available:
                    "the scheduling executors of Swift 6.3's runtime, which this runtime lacks"
                }
            return "\(api)(systemClocks: .virtual) needs \(lack): the \(body)'s sleeps on ContinuousClock and "
                + "SuspendingClock, Task.sleep's included, stay on the wall clock. Inject the test's VirtualClock "
                + "instead."
        case let .tasksStillAlive(fails):
            return "Tasks that the \(body) started were still suspended when it ended, waiting on a continuation "
                + "nobody resumed or on work outside virtual time (a DispatchQueue, a URL session), after the virtual "
                + "clock had woken its sleepers. Resume, cancel or await them before the \(body) returns"
                + (fails ? ", or let this test leave them with \(api)(leftovers: .allowed)." : ".")
        }
    }

    /// `"1 action"`, `"1,000,000 actions"`.
    static func counted(_ count: Int, _ noun: String) -> String {
        count == 1 ? "1 \(noun)" : "\(count.formatted) \(noun)s"
    }

    /// `"tick 5"`, `"ticks 5 and 9"`, `"ticks 5, 9 and 12"`, `"ticks 5, 9, 12 and later"`: the distinct ticks of a
    /// sorted list.
    static func ticks(_ sorted: [Int64]) -> String {
        var distinct: [Int64] = []
        for tick in sorted where distinct.last != tick { distinct.append(tick) }
        switch distinct.count {
        case 1: return "tick \(distinct[0])"
        case 2: return "ticks \(distinct[0]) and \(distinct[1])"
        case 3: return "ticks \(distinct[0]), \(distinct[1]) and \(distinct[2])"
        default: return "ticks \(distinct[0]), \(distinct[1]), \(distinct[2]) and later"
        }
    }

    private static func capitalised(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}
