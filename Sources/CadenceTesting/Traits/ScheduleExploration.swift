import Cadence
import CadenceSupport
import Foundation

#if canImport(Testing)
import Testing
#endif

/// Runs a virtual-time body under many schedules (`explore:`), or under one printed schedule (`schedule:`): the
/// driver behind `withVirtualTime(explore:)`, `withVirtualTime(schedule:)` and the trait's forms of them.
///
/// Each run is a session of its own — a fresh clock, scope and executor — whose clock and executor ask a
/// ``ScheduleChooser`` which lane goes first where work of different lanes is due at one instant. A run fails when
/// the body throws, or when an issue is recorded while it runs: a failure of Swift Testing (`#expect` included, seen
/// through `withKnownIssue`, whose matcher counts it and declines it, so it stays an ordinary failure), of XCTest
/// (the running test case's failure count) or of a reporter the test bound. The first failing run ends the
/// exploration; unless it is run 1, which keeps first-in first-out order and reports as a plain session does, one
/// more failure at the call says which schedule failed, how it differed from first-in first-out order and how to
/// replay it.
struct ScheduleExploration: Sendable {
    enum Request: Sendable, Equatable {
        case explore(Int)
        case replay(UInt64)
    }

    let request: Request
    /// `"withVirtualTime"` or `".virtualTime"`.
    let api: String
    /// `"body"` or `"test body"`.
    let bodyName: String
    /// Where the exploration's own reports go, and are located.
    let failures: FailureReporter
    /// Where the summary of a passing exploration goes, when summaries are on (see ``summarizes``).
    let notes: FailureReporter
    let location: SourceCodeLocation

    /// Whether a passing exploration notes what it ran: with the environment variable
    /// `CADENCE_EXPLORATION_SUMMARY` set to `1`, or where a test binds this.
    @TaskLocal static var summarizes: Bool = ProcessInfo.processInfo.environment["CADENCE_EXPLORATION_SUMMARY"] == "1"

    /// The call of the exploration running here, if any: how a nested one is found.
    @TaskLocal static var current: String?

    /// The call as written: `withVirtualTime(explore: 50)`, `.virtualTime(schedule: 0x1…)`.
    var call: String {
        switch request {
        case .explore(let runs): "\(api)(explore: \(runs))"
        case .replay(let seed): "\(api)(schedule: \(ScheduleSeed.hex(seed)))"
        }
    }

    /// How the body runs: once, as a plain session; once, replaying a schedule; or exploring.
    enum Start {
        case plain
        case replay(ScheduleSeed, ScheduleStrategy)
        case explore(ExplorationPlan)
    }

    /// How the body runs, after reporting bad input.
    func start() -> Start {
        if let outer = Self.current {
            let replay = if case .replay = request { true } else { false }
            report(ExplorationText.nested(call: call, outer: outer, bodyName: bodyName, replay: replay))
            return .plain
        }
        switch request {
        case .explore(let runs):
            guard runs > 0 else {
                report(ExplorationText.noRuns(call: call, bodyName: bodyName, runs: runs))
                return .plain
            }
            return .explore(
                ExplorationPlan(runs: runs, base: ExplorationPlan.base(fileID: location.fileID, line: location.line)))
        case .replay(let raw):
            let seed = ScheduleSeed(raw: raw)
            guard let strategy = seed.strategy else {
                report(ExplorationText.unknownSeed(call: call, api: api, bodyName: bodyName, seed: seed))
                return .plain
            }
            return .replay(seed, strategy)
        }
    }

    /// What the clock of `run` is, in the report of a call on it after it ended.
    func endedRun(_ run: Int) -> String {
        "run \(run) of \(call)"
    }

    /// Reports a replay that came to other choice points than the run its seed was printed for.
    func checkReplay(of seed: ScheduleSeed, by chooser: ScheduleChooser) {
        let log = chooser.log
        let found = ScheduleSeed.fingerprint(of: log)
        guard found != seed.fingerprint || chooser.leftoverDigits != 0 else { return }
        report(ExplorationText.notReplayed(call: call, api: api, bodyName: bodyName, seed: seed, found: found))
    }

    /// Reports the failure of `run`, in the schedule `shrunk` found if it found one, else in the run's own.
    func reportFailure(of run: Int, by chooser: ScheduleChooser, shrunk: ScheduleChooser?) {
        let log = chooser.log
        let failing = shrunk ?? chooser
        let failingLog = shrunk?.log ?? log
        report(
            ExplorationText.failed(
                call: call, replayCall: api, run: run,
                seed: ScheduleSeed(log: failingLog, strategy: failing.strategy), log: failingLog,
                deviationsOfRun: log.count { $0.chosen != 0 }, names: LaneNames(log: failingLog, chooser: failing)
            ))
    }

    /// The most runs the search for a smaller failing schedule makes.
    static let shrinkingRuns = 100

    /// The choices of the next schedule to try in the search for a smaller failing schedule than `log`'s: its
    /// choices with the first one past `index` that differs from first-in first-out order put back to the first
    /// candidate; nil when none is left but the last, whose removal gives first-in first-out order (run 1, which
    /// passed).
    static func smaller(than log: [ScheduleChoice], past index: inout Int) -> [Int]? {
        let deviations = log.indices.filter { log[$0].chosen != 0 }
        guard deviations.count > 1, let next = deviations.first(where: { $0 > index }) else { return nil }
        index = next
        var choices = ExplorationPlan.schedule(of: log)
        choices[next] = 0
        return choices
    }

    /// Whether a run that failed with `log` makes a smaller failing schedule than `best`: fewer deviations from
    /// first-in first-out order.
    static func isSmaller(_ log: [ScheduleChoice], than best: [ScheduleChoice]) -> Bool {
        log.count { $0.chosen != 0 } < best.count { $0.chosen != 0 }
    }

    /// Learns from the log of `run`; reports, and returns false, when the walk found the body not re-runnable.
    func learn(_ plan: inout ExplorationPlan, from chooser: ScheduleChooser) -> Bool {
        guard let divergence = plan.learn(chooser.log) else { return true }
        report(ExplorationText.diverged(call: call, bodyName: bodyName, run: plan.run, divergence: divergence))
        return false
    }

    /// Notes, when summaries are on, what a passing exploration ran.
    func summarize(_ plan: ExplorationPlan) {
        guard Self.summarizes else { return }
        notes.report(
            ExpectationFailure(
                message: ExplorationText.passed(
                    call: call, runs: plan.run, schedules: plan.schedules.count, exhausted: plan.exhausted),
                location: location
            ))
    }

    private func report(_ message: String) {
        failures.report(ExpectationFailure(message: message, location: location))
    }

    // MARK: Running

    /// Runs `body` as requested; each run's session comes from `session(chooser, endedRun)`.
    func run<R>(
        _ session: (_ chooser: ScheduleChooser?, _ endedRun: String?) -> VirtualTimeSession,
        _ body: (VirtualClock) throws -> R
    ) rethrows -> R {
        switch start() {
        case .plain:
            return try session(nil, nil).run(body)
        case .replay(let seed, let strategy):
            let chooser = ScheduleChooser(strategy)
            let result = try Self.$current.withValue(call) { try session(chooser, endedRun(1)).run(body) }
            checkReplay(of: seed, by: chooser)
            return result
        case .explore(var plan):
            var last: R?
            while let strategy = plan.next() {
                let chooser = ScheduleChooser(strategy)
                let run = plan.run
                let failures = Locked(0)
                let result: R
                do {
                    result = try Self.watching(failures) {
                        try Self.$current.withValue(call) { try session(chooser, endedRun(run)).run(body) }
                    }
                } catch {
                    if run > 1 { reportFailure(of: run, by: chooser, shrunk: shrink(chooser, session, body)) }
                    throw error
                }
                if failures.withLock({ $0 }) > 0 {
                    if run > 1 { reportFailure(of: run, by: chooser, shrunk: shrink(chooser, session, body)) }
                    return result
                }
                guard learn(&plan, from: chooser) else { return result }
                last = result
            }
            summarize(plan)
            return last!
        }
    }

    /// Runs the asynchronous `body` as requested; each run's session comes from `session(chooser, endedRun)`.
    func run<R>(
        isolation: isolated (any Actor)?,
        _ session: (_ chooser: ScheduleChooser?, _ endedRun: String?) -> VirtualTimeSession,
        _ body: (VirtualClock) async throws -> R
    ) async rethrows -> R {
        switch start() {
        case .plain:
            return try await session(nil, nil).run(isolation: isolation, body)
        case .replay(let seed, let strategy):
            let chooser = ScheduleChooser(strategy)
            let result = try await Self.$current.withValue(
                call,
                operation: { try await session(chooser, endedRun(1)).run(isolation: isolation, body) },
                isolation: isolation)
            checkReplay(of: seed, by: chooser)
            return result
        case .explore(var plan):
            var last: R?
            while let strategy = plan.next() {
                let chooser = ScheduleChooser(strategy)
                let run = plan.run
                let failures = Locked(0)
                let result: R
                do {
                    result = try await Self.watching(failures, isolation: isolation) {
                        try await Self.$current.withValue(
                            call,
                            operation: { try await session(chooser, endedRun(run)).run(isolation: isolation, body) },
                            isolation: isolation)
                    }
                } catch {
                    if run > 1 {
                        let shrunk = await shrink(chooser, isolation: isolation, session, body)
                        reportFailure(of: run, by: chooser, shrunk: shrunk)
                    }
                    throw error
                }
                if failures.withLock({ $0 }) > 0 {
                    if run > 1 {
                        let shrunk = await shrink(chooser, isolation: isolation, session, body)
                        reportFailure(of: run, by: chooser, shrunk: shrunk)
                    }
                    return result
                }
                guard learn(&plan, from: chooser) else { return result }
                last = result
            }
            summarize(plan)
            return last!
        }
    }

    // MARK: Shrinking

    /// Searches for a schedule that fails with fewer choices that differ from first-in first-out order than the
    /// failing run `failed` made: puts its deviations back one at a time, keeping each change that still fails with
    /// fewer. The runs it makes
    /// record nothing (their failures are known ones); nil under XCTest, whose failures cannot be taken back, and
    /// when no smaller failing schedule that a seed can write down was found.
    private func shrink<R>(
        _ failed: ScheduleChooser,
        _ session: (_ chooser: ScheduleChooser?, _ endedRun: String?) -> VirtualTimeSession,
        _ body: (VirtualClock) throws -> R
    ) -> ScheduleChooser? {
        guard Self.xcTestFailures == nil else { return nil }
        var best: ScheduleChooser?
        var log = failed.log
        var index = -1
        var runs = 0
        while runs < Self.shrinkingRuns, let choices = Self.smaller(than: log, past: &index) {
            runs += 1
            let chooser = ScheduleChooser(.choices(choices))
            let fails = Self.quietly {
                _ = try Self.$current.withValue(call) { try session(chooser, nil).run(body) }
            }
            if fails, Self.isSmaller(chooser.log, than: log) {
                // Smaller: start over from its first deviation, as putting one back moves the choices after it.
                best = chooser
                log = chooser.log
                index = -1
            }
        }
        guard let best, ScheduleSeed.digits(of: best.log) != nil else { return nil }
        return best
    }

    /// Searches for a smaller failing schedule than the asynchronous failing run `failed` made (see the synchronous
    /// `shrink`).
    private func shrink<R>(
        _ failed: ScheduleChooser,
        isolation: isolated (any Actor)?,
        _ session: (_ chooser: ScheduleChooser?, _ endedRun: String?) -> VirtualTimeSession,
        _ body: (VirtualClock) async throws -> R
    ) async -> ScheduleChooser? {
        guard Self.xcTestFailures == nil else { return nil }
        var best: ScheduleChooser?
        var log = failed.log
        var index = -1
        var runs = 0
        while runs < Self.shrinkingRuns, let choices = Self.smaller(than: log, past: &index) {
            runs += 1
            let chooser = ScheduleChooser(.choices(choices))
            let fails = await Self.quietly(isolation: isolation) {
                _ = try await Self.$current.withValue(
                    call, operation: { try await session(chooser, nil).run(isolation: isolation, body) },
                    isolation: isolation)
            }
            if fails, Self.isSmaller(chooser.log, than: log) {
                // Smaller: start over from its first deviation, as putting one back moves the choices after it.
                best = chooser
                log = chooser.log
                index = -1
            }
        }
        guard let best, ScheduleSeed.digits(of: best.log) != nil else { return nil }
        return best
    }

    /// Runs `run` with every failure it reports or records taken as known, and swallowed; returns whether it failed.
    private static func quietly(_ run: () throws -> Void) -> Bool {
        let failures = Locked(0)
        let silent = FailureReporter(destination: .custom) { _ in failures.withLock { $0 += 1 } }
        func silenced() {
            do {
                try FailureReporter.$current.withValue(silent) { try run() }
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        #if canImport(Testing)
        if FailureReporter.isSwiftTestingRunning {
            withKnownIssue(isIntermittent: true) {
                silenced()
            } matching: { issue in
                _ = countIssue(issue, into: failures)
                return true
            }
            return failures.withLock { $0 } > 0
        }
        #endif
        silenced()
        return failures.withLock { $0 } > 0
    }

    /// Runs the asynchronous `run` with every failure it reports or records taken as known, and swallowed; returns
    /// whether it failed.
    private static func quietly(isolation: isolated (any Actor)?, _ run: () async throws -> Void) async -> Bool {
        let failures = Locked(0)
        let silent = FailureReporter(destination: .custom) { _ in failures.withLock { $0 += 1 } }
        #if canImport(Testing)
        if FailureReporter.isSwiftTestingRunning {
            await withKnownIssue(isIntermittent: true, isolation: isolation) {
                do {
                    try await FailureReporter.$current.withValue(silent, operation: run, isolation: isolation)
                } catch {
                    failures.withLock { $0 += 1 }
                }
            } matching: { issue in
                _ = countIssue(issue, into: failures)
                return true
            }
            return failures.withLock { $0 } > 0
        }
        #endif
        do {
            try await FailureReporter.$current.withValue(silent, operation: run, isolation: isolation)
        } catch {
            failures.withLock { $0 += 1 }
        }
        return failures.withLock { $0 } > 0
    }

    // MARK: Watching for failures

    /// A reporter that counts into `failures` each failure it passes on to the reporter the test bound, if it bound
    /// one.
    private static func counting(_ failures: Locked<Int>) -> FailureReporter? {
        FailureReporter.bound.map { bound in
            FailureReporter(destination: .custom, attachment: bound.attachment) { failure in
                failures.withLock { $0 += 1 }
                bound.report(failure)
            }
        }
    }

    /// Runs `run`, counting into `failures` the failures recorded meanwhile.
    private static func watching<R>(_ failures: Locked<Int>, _ run: () throws -> R) rethrows -> R {
        let before = xcTestFailures
        defer {
            if let before, let after = xcTestFailures, after > before { failures.withLock { $0 += after - before } }
        }
        let counting = counting(failures)
        func counted() throws -> R {
            guard let counting else { return try run() }
            return try FailureReporter.$current.withValue(counting) { try run() }
        }
        #if canImport(Testing)
        if FailureReporter.isSwiftTestingRunning {
            var result: R?
            try withKnownIssue(isIntermittent: true) {
                result = try counted()
            } matching: { issue in
                countIssue(issue, into: failures)
            }
            return result!
        }
        #endif
        return try counted()
    }

    /// Runs the asynchronous `run`, counting into `failures` the failures recorded meanwhile.
    private static func watching<R>(
        _ failures: Locked<Int>, isolation: isolated (any Actor)?, _ run: () async throws -> R
    ) async rethrows -> R {
        let before = xcTestFailures
        defer {
            if let before, let after = xcTestFailures, after > before { failures.withLock { $0 += after - before } }
        }
        let counting = counting(failures)
        #if canImport(Testing)
        if FailureReporter.isSwiftTestingRunning {
            var result: R?
            try await withKnownIssue(isIntermittent: true, isolation: isolation) {
                if let counting {
                    result = try await FailureReporter.$current.withValue(
                        counting, operation: run, isolation: isolation)
                } else {
                    result = try await run()
                }
            } matching: { issue in
                countIssue(issue, into: failures)
            }
            return result!
        }
        #endif
        guard let counting else { return try await run() }
        return try await FailureReporter.$current.withValue(counting, operation: run, isolation: isolation)
    }

    #if canImport(Testing)
    /// Counts `issue` into `failures` if it fails the test, and declines it as a known issue: it stays a failure.
    private static func countIssue(_ issue: Issue, into failures: Locked<Int>) -> Bool {
        #if compiler(>=6.3)
        guard issue.isFailure else { return false }
        #endif
        failures.withLock { $0 += 1 }
        return false
    }
    #endif

    /// The running XCTest test case's failures so far; nil outside one.
    private static var xcTestFailures: Int? {
        #if canImport(XCTest)
        XCTestCaseObserver.failureCount
        #else
        nil
        #endif
    }
}
