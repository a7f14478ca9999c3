import CadenceSupport
#if canImport(Testing)
import Testing
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One stretch of virtual time — a test case under `.virtualTime`, or a `withVirtualTime` body — and what happens
/// when it ends.
///
/// A session owns a fresh ``VirtualClock`` and ``ExpectationScope``. While the body runs it binds the clock as
/// ``VirtualClock/current`` (so `DispatchQueue.test`, every `TestScheduler` and `expect` share it), a clock-misuse
/// reporter that records into the test as ``VirtualClock/issueReporter``, and the scope as
/// ``ExpectationScope/current``. When the body returns it drains the clock — running leftover work for at most
/// `horizon` of virtual time and ``actionLimit`` actions — then finishes the scope (late over-fulfilment), reports
/// work still pending, and ends the clock. When the body throws it only ends the clock and lets the error through.
struct VirtualTimeSession: Sendable {
    /// How many actions the drain runs at most before it gives up on a clock that never idles: a hundred thousand,
    /// far more than a test's leftover work, and few enough that a timer repeating every tick costs a fraction of a
    /// second, not seconds.
    static let actionLimit = 100_000

    /// How the session is written, for messages: `".virtualTime"` or `"withVirtualTime"`.
    let api: String
    /// What the session wraps, for messages: `"test body"` or `"body"`.
    let bodyName: String
    let horizon: Duration
    let isStrict: Bool
    /// Where the session's own reports go: clock misuse, a bad horizon, and in strict mode work that never ran.
    let failures: FailureReporter
    /// Where the session's notes go — the "clock still busy" note outside strict mode — at warning level when the
    /// test framework has one.
    let notes: FailureReporter
    /// Where the session's own reports are located: the `@Test`, or the `withVirtualTime` call.
    let location: SourceCodeLocation
    let clock: VirtualClock
    let scope: ExpectationScope
    let clockReporter: VirtualClock.IssueReporter

    init(
        api: String,
        bodyName: String,
        horizon: Duration,
        isStrict: Bool,
        failures: FailureReporter,
        notes: FailureReporter,
        location: SourceCodeLocation
    ) {
        self.api = api
        self.bodyName = bodyName
        self.horizon = horizon
        self.isStrict = isStrict
        self.failures = failures
        self.notes = notes
        self.location = location
        clockReporter = VirtualClock.IssueReporter { message in
            failures.report(ExpectationFailure(message: message, location: location))
        }
        clock = VirtualClock(reporter: clockReporter, sessionExecutor: true)
        scope = ExpectationScope()
    }

    // MARK: Running

    /// Runs `body` on the session's clock and scope, then drains and reports; ends the clock either way.
    func run<R>(_ body: (VirtualClock) throws -> R) rethrows -> R {
        defer { clock.end() }
        return try VirtualClock.$current.withValue(clock) {
            try IssueReporter.$current.withValue(clockReporter) {
                try ExpectationScope.$current.withValue(scope) {
                    let result = try body(clock)
                    finish()
                    return result
                }
            }
        }
    }

    /// Runs `body` on the session's clock and scope, with the tasks it starts on the session's executor, then drains
    /// and reports; ends the clock and the executor either way.
    ///
    /// Once the body returns and the clock is drained, the clock ends (waking its sleepers with `CancellationError`),
    /// the tasks run until idle once more, and tasks of the session still alive after that are reported.
    func run<R>(
        isolation: isolated (any Actor)?,
        _ body: (VirtualClock) async throws -> R
    ) async rethrows -> R {
        var membership = clock.executor.map(VirtualTimeExecutor.Membership.init)
        let result: R
        do {
            result = try await VirtualTimeExecutor.$current.withValue(membership, operation: {
                try await VirtualClock.$current.withValue(clock, operation: {
                    try await IssueReporter.$current.withValue(clockReporter, operation: {
                        try await ExpectationScope.$current.withValue(scope, operation: {
                            let result = try await body(clock)
                            await finish()
                            return result
                        }, isolation: isolation)
                    }, isolation: isolation)
                }, isolation: isolation)
            }, isolation: isolation)
        } catch {
            clock.end()
            clock.executor?.end()
            throw error
        }
        clock.end()
        guard let executor = clock.executor else { return result }
        await executor.waitUntilIdle(origin: "Ending the virtual clock after the \(bodyName) returned")
        let dropped = executor.end()
        weak let member = membership
        membership = nil
        reportLeftoverTasks(stillAlive: member != nil, dropped: dropped)
        return result
    }

    /// Reports the session's tasks still alive when it ended, and the ready jobs it dropped.
    private func reportLeftoverTasks(stillAlive: Bool, dropped: Int) {
        if dropped > 0 {
            let (verb, pronoun) = dropped == 1 ? ("was", "It was") : ("were", "They were")
            failures.report(ExpectationFailure(
                message: "\(Self.counted(dropped, "job")) of the tasks the \(bodyName) started \(verb) still ready "
                    + "to run when it ended: a task that never suspends on the clock and never finishes (a loop of "
                    + "Task.yield()?). \(pronoun) dropped and never run; make such a task sleep on the clock, await "
                    + "something, or finish.",
                location: location
            ))
        } else if stillAlive {
            let message = "Tasks that the \(bodyName) started were still suspended when it ended, waiting on a "
                + "continuation nobody resumed or on work outside virtual time (a DispatchQueue, a URL session), "
                + "after the virtual clock had woken its sleepers. Resume, cancel or await them before the "
                + "\(bodyName) returns."
            (isStrict ? failures : notes).report(ExpectationFailure(message: message, location: location))
        }
    }

    // MARK: Finishing

    /// Drains the clock up to the horizon, reports late events, then reports any work still pending.
    func finish() {
        let (returnedAt, horizonTick) = horizonTick()
        report(drained: drain(through: horizonTick), returnedAt: returnedAt, horizonTick: horizonTick)
    }

    /// Drains the clock up to the horizon, letting the session's tasks run between ticks, reports late events, then
    /// reports any work still pending.
    func finish() async {
        let (returnedAt, horizonTick) = horizonTick()
        let drained = await clock.runTasksAndActions(
            through: horizonTick, limit: Self.actionLimit, movingTimeToTarget: false,
            waiter: "Draining the virtual clock after the \(bodyName) returned"
        )
        report(drained: drained, returnedAt: returnedAt, horizonTick: horizonTick)
    }

    /// The tick the body returned at and the last tick the drain may reach; reports a negative horizon.
    private func horizonTick() -> (returnedAt: Int64, horizonTick: Int64) {
        let returnedAt = clock.now.ticks
        if horizon < .zero {
            failures.report(ExpectationFailure(
                message: "\(api)(horizon:) was given a negative horizon (\(VirtualTicks.describe(horizon))); time "
                    + "never goes backwards, so only the work already due when the \(bodyName) returned (at tick "
                    + "\(returnedAt)) ran.",
                location: location
            ))
        }
        let (sum, overflow) = returnedAt.addingReportingOverflow(VirtualTicks.count(in: max(horizon, .zero)))
        return (returnedAt, overflow ? Int64.max : sum)
    }

    /// Finishes the scope (late over-fulfilment), then reports the work the drain left pending.
    private func report(drained: (ran: Int, stoppedOnLimit: Bool), returnedAt: Int64, horizonTick: Int64) {
        let (ran, stoppedOnLimit) = drained
        scope.finish()
        var pending = clock.pendingDueTicks
        // Work due inside the horizon that the drain did not run was scheduled after the drain found the clock idle:
        // by a task the body started and that was still running (it woke, then slept again on another thread).
        let stragglers = stoppedOnLimit ? [] : pending.filter { $0 <= horizonTick }
        if !stragglers.isEmpty {
            pending.removeAll { $0 <= horizonTick }
            let work = "\(Self.counted(stragglers.count, "scheduled action")), due at \(Self.ticks(stragglers)),"
            let verb = stragglers.count == 1 ? "was" : "were"
            let message = "\(Self.capitalised(work)) \(verb) scheduled after the virtual clock had been drained — by "
                + "a task the \(bodyName) started and did not await? Await or cancel the tasks the \(bodyName) starts "
                + "before it returns."
            (isStrict ? failures : notes).report(ExpectationFailure(message: message, location: location))
        }
        guard !pending.isEmpty else { return }
        let busy: String
        let hint: String
        if stoppedOnLimit {
            busy = "the virtual clock was still busy after running \(Self.counted(ran, "action")) since the "
                + "\(bodyName) returned (at tick \(returnedAt); it stopped at tick \(clock.now.ticks))"
            hint = ""
        } else {
            busy = "the virtual clock was still busy \(VirtualTicks.literal(max(horizon, .zero))) after the "
                + "\(bodyName) returned (at tick \(returnedAt))"
            hint = ", or give \(api)(horizon:) a longer horizon"
        }
        let work = "\(Self.counted(pending.count, "scheduled action")), due at \(Self.ticks(pending)),"
        if isStrict {
            failures.report(ExpectationFailure(
                message: "\(Self.capitalised(work)) never ran: \(busy). Cancel the work the \(bodyName) leaves "
                    + "behind\(hint).",
                location: location
            ))
        } else {
            notes.report(ExpectationFailure(
                message: "\(Self.capitalised(busy)): \(work) never ran. An endless repeating timer, or work that "
                    + "keeps rescheduling itself? Cancel it before the \(bodyName) returns\(hint); "
                    + "\(api)(strict: true) makes this a failure.",
                location: location
            ))
        }
    }

    /// Runs the clock's work due by `horizonTick`, moving time only to each action's due tick, for at most
    /// ``actionLimit`` actions.
    ///
    /// - Returns: how many actions ran, and whether it stopped on the limit with work due by `horizonTick` waiting.
    private func drain(through horizonTick: Int64) -> (ran: Int, stoppedOnLimit: Bool) {
        var ran = 0
        while let next = clock.nextDueTick, next <= horizonTick {
            if ran >= Self.actionLimit { return (ran, true) }
            let (count, _) = clock.runActions(through: next, limit: Self.actionLimit - ran)
            ran += count
        }
        return (ran, false)
    }

    // MARK: Text

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

// MARK: - Reporters

extension FailureReporter {
    /// The reporter for a session's notes, given the reporter its failures go to: a bound ``current`` reporter takes
    /// both; otherwise a running Swift Testing test records notes as warnings, and anywhere else they go to standard
    /// error (XCTest has no warning level).
    static var resolvedForNotes: FailureReporter {
        if let current { return current }
        #if canImport(Testing)
        if Test.current != nil { return .swiftTestingWarning }
        #endif
        return .standardErrorWarning
    }

    #if canImport(Testing)
    /// Records each report as a Swift Testing issue of warning severity, which does not fail the test (before Swift
    /// 6.3, whose Swift Testing has no public severity, it writes to standard error instead).
    static let swiftTestingWarning: FailureReporter = {
        #if compiler(>=6.3)
        FailureReporter { failure in
            let location = failure.location
            Issue.record(
                Comment(rawValue: failure.message),
                severity: .warning,
                sourceLocation: SourceLocation(
                    fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column
                )
            )
        }
        #else
        standardErrorWarning
        #endif
    }()
    #endif

    /// Writes each report to standard error as `<location>: warning: <message>`; it fails nothing.
    static let standardErrorWarning = FailureReporter { failure in
        let text = "\(failure.location): warning: \(failure.message)\n"
        _ = text.utf8CString.withUnsafeBufferPointer { buffer in
            write(2, buffer.baseAddress, buffer.count - 1)
        }
    }
}
