import Cadence
import CadenceSupport

/// The messages of schedule exploration (`withVirtualTime(explore:)`, `.virtualTime(explore:)`) and of the replay of
/// a schedule.
enum ExplorationText {
    /// How many deviations a report lists before it sums up the rest.
    static let listedDeviations = 10

    /// A run that failed, after run 1 passed, and the schedule — the run's own, or a smaller one found from it —
    /// that fails:
    ///
    /// ```text
    /// withVirtualTime(explore: 50): run 4 failed; runs 1 to 3 passed, run 1 in first-in first-out order.
    /// It fails in schedule 0x1A40000000000001, which differs from first-in first-out order in 1 choice:
    ///   at tick 100, the wake-up of the task named "timeout" ran before the wake-up of the task named "response"
    /// (Run 4 differed in 12 choices; putting the others back did not stop the failure.)
    /// Replay that schedule, run after run, with withVirtualTime(schedule: 0x1A40000000000001).
    /// ```
    static func failed(
        call: String, replayCall: String, run: Int, seed: ScheduleSeed, log: [ScheduleChoice], deviationsOfRun: Int,
        names: LaneNames
    ) -> String {
        let passed =
            switch run {
            case 2: "run 1 passed, in first-in first-out order"
            case 3: "runs 1 and 2 passed, run 1 in first-in first-out order"
            default: "runs 1 to \(run - 1) passed, run 1 in first-in first-out order"
            }
        let deviations = log.filter { $0.chosen != 0 }
        var lines = [
            "\(call): run \(run) failed; \(passed).",
            "It fails in schedule \(seed.hex), which differs from first-in first-out order in "
                + "\(SessionText.counted(deviations.count, "choice")):",
        ]
        for choice in deviations.prefix(listedDeviations) {
            let others = choice.candidates.count - 2
            lines.append(
                "  at tick \(choice.tick), \(names.name(choice.candidates[choice.chosen])) ran before "
                    + "\(names.name(choice.candidates[0]))"
                    + (others > 0 ? " (and \(SessionText.counted(others, "other lane")) ready then)" : "")
            )
        }
        if deviations.count > listedDeviations {
            lines.append("  and \(deviations.count - listedDeviations) more")
        }
        if deviationsOfRun > deviations.count {
            lines.append(
                "(Run \(run) differed in \(deviationsOfRun) choices; putting the others back did not stop the failure.)"
            )
        }
        lines.append("Replay that schedule, run after run, with \(replayCall)(schedule: \(seed.hex)).")
        return lines.joined(separator: "\n")
    }

    /// What a passing exploration ran, when summaries are on:
    ///
    /// ```text
    /// withVirtualTime(explore: 20) passed 2 runs, in 2 distinct schedules: every schedule of the same-instant work
    /// this test meets.
    /// ```
    static func passed(call: String, runs: Int, schedules: Int, exhausted: Bool) -> String {
        let ran =
            "\(call) passed \(SessionText.counted(runs, "run")), in \(SessionText.counted(schedules, "distinct schedule"))"
        if runs == 1, exhausted {
            return ran + ": the body met no same-instant choice, so first-in first-out order is its only schedule."
        }
        return ran + (exhausted ? ": every schedule of the same-instant work this test meets." : ", sampled from more.")
    }

    /// `explore:` given no runs.
    static func noRuns(call: String, bodyName: String, runs: Int) -> String {
        "\(call) was given \(runs) \(abs(runs) == 1 ? "run" : "runs"); exploring needs at least 1 (the first run keeps "
            + "first-in first-out order), so the \(bodyName) ran once, in first-in first-out order."
    }

    /// `schedule:` given a seed of a format this version does not print.
    static func unknownSeed(call: String, api: String, bodyName: String, seed: ScheduleSeed) -> String {
        "\(call) was given a seed this version of Cadence cannot replay: the seeds it prints begin with 0x1, 0x2 or "
            + "0x3, and this one begins with 0x\(String(seed.formatDigit, radix: 16, uppercase: true)) — from another "
            + "version, or not printed by an exploration. The \(bodyName) ran once, in first-in first-out order; explore "
            + "again with \(api)(explore:) to get a seed this version replays."
    }

    /// A replay that came to other choice points than the run its seed was printed for.
    static func notReplayed(call: String, api: String, bodyName: String, seed: ScheduleSeed, found: UInt8) -> String {
        "\(call) did not replay the schedule it was printed for: this run came to its same-instant choices differently "
            + "(fingerprint \(hexByte(found)); the seed's is \(hexByte(seed.fingerprint))). The test, the code it runs "
            + "or Cadence has changed since the seed was printed, or the \(bodyName) keeps state from one run to the "
            + "next. Explore again with \(api)(explore:) to find a seed for the code as it is."
    }

    /// A run of the walk through every schedule that came to other choice points than the run before it, before the
    /// point where the two should part.
    static func diverged(call: String, bodyName: String, run: Int, divergence: ExplorationPlan.Divergence) -> String {
        let found =
            divergence.found.map { "\($0) candidates instead of \(divergence.expected)" }
            ?? "no choice instead of one among \(divergence.expected) candidates"
        return "\(call): run \(run) came to its same-instant choices differently from run \(run - 1) before the point "
            + "where they should part (at tick \(divergence.tick), \(found)): the \(bodyName) is not re-runnable — it "
            + "keeps state outside the \(bodyName) from one run to the next, or depends on real time or real queues. "
            + "Make what the \(bodyName) uses inside it. Exploration stopped after run \(run)."
    }

    /// An exploration or replay inside another.
    static func nested(call: String, outer: String, bodyName: String, replay: Bool) -> String {
        "\(call) was called inside the exploration of \(outer): "
            + (replay
                ? "a schedule replayed inside an exploration would not be the schedule it was printed for. Replay at "
                    + "one level only"
                : "exploring inside an exploration would multiply the runs, and its seeds could not be replayed "
                    + "apart. Explore at one level only")
            + "; the inner \(bodyName) ran once, in first-in first-out order."
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (digits.count == 1 ? "0" : "") + digits
    }
}
