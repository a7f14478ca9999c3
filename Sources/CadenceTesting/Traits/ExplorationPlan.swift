import Cadence
import CadenceSupport

/// Which schedule each run of an exploration takes, learnt from the runs before it.
///
/// Run 1 takes first-in first-out order. When its choice points allow no more schedules than there are runs, the
/// next runs walk every schedule depth-first (``ScheduleWalk``), each once, and the exploration stops when the walk
/// is done; otherwise they alternate between uniform random choices and PCT of depth 2 and 3, from seeds drawn from
/// `base`, so an exploration takes the same schedules in every run of the test suite.
struct ExplorationPlan {
    /// How many runs at most.
    let runs: Int
    /// Where the runs' seeds come from.
    let base: UInt64
    /// The runs started so far.
    private(set) var run = 0
    /// Whether the runs walk every schedule.
    private(set) var enumerating = false
    /// The walk's next choices, while enumerating.
    private var walk: [Int]?
    /// Where the walk's choices lead: the kind and number of candidates of each forced choice point, as the run
    /// before found them.
    private var forced: [(kind: ScheduleChoice.Kind, count: Int)] = []
    /// Whether there is no schedule left to run.
    private(set) var exhausted = false
    /// The most choice points a run has come to: PCT's steps.
    private var steps = 0
    /// The distinct schedules run: each run's choices up to its last that was not the first candidate.
    private(set) var schedules: Set<[Int]> = []

    init(runs: Int, base: UInt64) {
        self.runs = runs
        self.base = base
    }

    /// The strategy of the next run; nil when the exploration is over.
    mutating func next() -> ScheduleStrategy? {
        guard run < runs, !exhausted else { return nil }
        run += 1
        if run == 1 { return .firstInFirstOut }
        if enumerating, let walk { return .choices(walk) }
        var generator = SplitMix64(seed: base ^ UInt64(run))
        let seed = generator.next()
        if run.isMultiple(of: 2) { return .uniform(seed: seed & ScheduleSeed.payloadMask) }
        return .pct(
            seed: seed & ((1 << UInt64(ScheduleSeed.pctSeedBits)) - 1), depth: run / 2 % 2 == 0 ? 3 : 2,
            steps: min(max(steps, 1), ScheduleSeed.pctMaxSteps)
        )
    }

    /// What a run found when its forced choices led elsewhere than the run before had found: a body that is not
    /// re-runnable.
    struct Divergence: Equatable {
        let tick: Int64
        let expected: Int
        let found: Int?
    }

    /// Learns the shape of the order space from the log of the run just made; returns where it went elsewhere than
    /// the walk expected, if it did.
    mutating func learn(_ log: [ScheduleChoice]) -> Divergence? {
        schedules.insert(Self.schedule(of: log))
        steps = max(steps, log.count)
        if run == 1 {
            if log.isEmpty {
                exhausted = true
                return nil
            }
            // How many schedules the first run's choice points allow, as far as it goes past the runs there are.
            var space = 1
            for choice in log {
                space = space.multipliedReportingOverflow(by: choice.candidates.count).partialValue
                if space > runs || space <= 0 { break }
            }
            enumerating = space > 0 && space <= runs
        }
        guard enumerating else { return nil }
        if walk != nil {
            for (index, expected) in forced.enumerated() {
                let found = index < log.count ? log[index] : nil
                if found?.kind != expected.kind || found?.candidates.count != expected.count {
                    exhausted = true
                    return Divergence(
                        tick: found?.tick ?? log.last?.tick ?? 0, expected: expected.count,
                        found: found?.candidates.count
                    )
                }
            }
        }
        walk = ScheduleWalk.next(after: log)
        if let walk {
            forced = log.prefix(walk.count).map { ($0.kind, $0.candidates.count) }
        } else {
            exhausted = true
        }
        return nil
    }

    /// A run's choices up to its last that was not the first candidate: the same list, the same schedule.
    static func schedule(of log: [ScheduleChoice]) -> [Int] {
        guard let last = log.lastIndex(where: { $0.chosen != 0 }) else { return [] }
        return log[...last].map(\.chosen)
    }

    /// The base of an exploration's seeds at a place in the source: the same place, the same seeds.
    static func base(fileID: String, line: Int) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in fileID.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        var generator = SplitMix64(seed: hash ^ UInt64(truncatingIfNeeded: line))
        return generator.next()
    }
}
