import Cadence
import Testing

/// A printed schedule (`ScheduleSeed`): how each of its three forms is written and read back, so that a seed a report
/// prints replays the run it was printed for, and only that run.
@Suite struct ScheduleSeedTests {
    /// A chooser under `strategy` asked at `points`, each a number of candidates, all at tick 10.
    private func run(_ strategy: ScheduleStrategy, _ points: [Int]) -> ScheduleChooser {
        let chooser = ScheduleChooser(strategy)
        for count in points {
            _ = chooser.choose(.clock, tick: 10, among: (1...count).map { .scheduler(UInt32($0)) })
        }
        return chooser
    }

    @Test func aSeedPrintsAsSixteenUpperCaseHexDigits() {
        #expect(ScheduleSeed(raw: 0x1E20_0000_0000_0001).hex == "0x1E20000000000001")
        #expect(ScheduleSeed(raw: 0xA).hex == "0x000000000000000A")
        #expect(ScheduleSeed(raw: .max).hex == "0xFFFFFFFFFFFFFFFF")
    }

    @Test func choicesAreWrittenInMixedRadixAndReplayed() throws {
        let points = [2, 3, 4, 3, 2]
        let original = run(.choices([1, 2, 0, 2]), points)
        let seed = ScheduleSeed(log: original.log, strategy: original.strategy)
        // 1 + 2·2 + 0·6 + 2·24 = 53, up to the last choice that was not the first candidate.
        #expect(seed.format == .choices)
        #expect(seed.payload == 53)
        #expect(seed.fingerprint == ScheduleSeed.fingerprint(of: original.log))
        let replay = run(try #require(seed.strategy), points)
        #expect(replay.log == original.log)
        #expect(replay.leftoverDigits == 0)
    }

    @Test func choicesTooManyToWriteDownFallBackToTheGeneratorsSeed() throws {
        // 60 points of 4 candidates: a random run's last deviation comes late, and 4^26 already needs 52 bits.
        let points = [Int](repeating: 4, count: 60)
        let uniform = run(.uniform(seed: 0x1234_5678), points)
        let log = uniform.log
        #expect(ScheduleSeed.digits(of: log) == nil)
        let seed = ScheduleSeed(log: log, strategy: uniform.strategy)
        #expect(seed.format == .uniform)
        #expect(seed.strategy == .uniform(seed: 0x1234_5678))
        #expect(run(try #require(seed.strategy), points).log == log)

        let pct = run(.pct(seed: 0x9_8765_4321, depth: 3, steps: 60), points)
        let pctSeed = ScheduleSeed(log: pct.log, strategy: pct.strategy)
        #expect(ScheduleSeed.digits(of: pct.log) == nil)
        #expect(pctSeed.format == .pct)
        #expect(pctSeed.strategy == .pct(seed: 0x9_8765_4321, depth: 3, steps: 60))
        #expect(run(try #require(pctSeed.strategy), points).log == pct.log)
    }

    @Test func digitsThatDoNotFitAreNil() {
        let wide = (0..<30).map { index in
            ScheduleChoice(
                kind: .clock, tick: 1, candidates: [.clock, .scheduler(1), .scheduler(2), .scheduler(3)],
                chosen: index == 29 ? 3 : 1)
        }
        // 4^29 · 3 > 2^52.
        #expect(ScheduleSeed.digits(of: wide) == nil)
        #expect(ScheduleSeed.digits(of: Array(wide.prefix(5))) == 1 + 4 + 16 + 64 + 256)
        #expect(ScheduleSeed.digits(of: []) == 0)
    }

    @Test func theFingerprintSeesWhereChoicesCameAndHowManyCandidatesEachHad() {
        let twoThenThree = run(.firstInFirstOut, [2, 3]).log
        let threeThenTwo = run(.firstInFirstOut, [3, 2]).log
        let executor = [ScheduleChoice(kind: .executor, tick: 10, candidates: [.mainActor, .task(1)], chosen: 0)]
        let clock = [ScheduleChoice(kind: .clock, tick: 10, candidates: [.clock, .scheduler(1)], chosen: 0)]
        let again = run(.firstInFirstOut, [2, 3]).log
        #expect(ScheduleSeed.fingerprint(of: twoThenThree) == ScheduleSeed.fingerprint(of: again))
        #expect(ScheduleSeed.fingerprint(of: twoThenThree) != ScheduleSeed.fingerprint(of: threeThenTwo))
        #expect(ScheduleSeed.fingerprint(of: executor) != ScheduleSeed.fingerprint(of: clock))
    }

    @Test func aReplayThatMeetsFewerCandidatesLeavesDigits() {
        // Written for a point of 3 candidates (choice 2), replayed where the point has 2: 2 % 2 = 0, 2 / 2 = 1 left.
        let replay = run(.digits(2), [2])
        #expect(replay.log.map(\.chosen) == [0])
        #expect(replay.leftoverDigits == 1)
    }

    @Test func onlyTheThreeFormatsThisVersionPrintsReplay() {
        #expect(ScheduleSeed(raw: 0x0000_0000_0000_0001).strategy == nil)
        #expect(ScheduleSeed(raw: 0xF000_0000_0000_0001).strategy == nil)
        #expect(ScheduleSeed(raw: 0x4000_0000_0000_0001).strategy == nil)
        #expect(ScheduleSeed(raw: 0x1000_0000_0000_0005).strategy == .digits(5))
        #expect(ScheduleSeed(raw: 0x2000_0000_0000_0005).strategy == .uniform(seed: 5))
    }
}
