import Cadence
import Testing

/// The chooser of an exploring run (Sources/Cadence/Exploration): its generator, its strategies and its log.
@Suite struct ScheduleChooserTests {
    /// The reference outputs of SplitMix64 seeded with 0, as published with the algorithm: a seed names the same
    /// choices on every platform.
    @Test func splitMix64GivesTheReferenceOutputs() {
        var generator = SplitMix64(seed: 0)
        #expect(
            [generator.next(), generator.next(), generator.next()] == [
                0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F,
            ])
    }

    @Test func aBoundedDrawStaysBelowItsBoundAndReachesEveryNumber() {
        var generator = SplitMix64(seed: 42)
        var counts = [Int](repeating: 0, count: 6)
        for _ in 0..<6_000 { counts[Int(generator.next(below: 6))] += 1 }
        #expect(counts.allSatisfy { (850...1_150).contains($0) }, "counts: \(counts)")
        #expect(generator.next(below: 1) == 0)
        #expect(generator.next(below: 0) == 0)
    }

    @Test func firstInFirstOutAlwaysTakesTheFirstCandidateAndLogsEachChoice() {
        let chooser = ScheduleChooser(.firstInFirstOut)
        #expect(chooser.choose(.clock, tick: 3, among: [.clock, .scheduler(1)]) == 0)
        #expect(chooser.choose(.clock, tick: 5, among: [.scheduler(2), .scheduler(1), .wakeUp(task: 7)]) == 0)
        #expect(
            chooser.log == [
                ScheduleChoice(kind: .clock, tick: 3, candidates: [.clock, .scheduler(1)], chosen: 0),
                ScheduleChoice(
                    kind: .clock, tick: 5, candidates: [.scheduler(2), .scheduler(1), .wakeUp(task: 7)], chosen: 0),
            ])
        #expect(chooser.deviations.isEmpty)
    }

    @Test func givenChoicesAreTakenInOrderModuloTheCandidatesThenTheFirst() {
        let chooser = ScheduleChooser(.choices([1, 5, -1]))
        let lanes: [ScheduleLane] = [.clock, .scheduler(1), .scheduler(2)]
        #expect((0..<4).map { _ in chooser.choose(.clock, tick: 0, among: lanes) } == [1, 2, 1, 0])
        #expect(chooser.deviations.map(\.chosen) == [1, 2, 1])
    }

    @Test func aUniformChooserMakesTheSameChoicesForTheSameSeedAndOthersForAnother() {
        let lanes: [ScheduleLane] = [.clock, .scheduler(1), .scheduler(2)]
        func choices(seed: UInt64) -> [Int] {
            let chooser = ScheduleChooser(.uniform(seed: seed))
            return (0..<32).map { _ in chooser.choose(.clock, tick: 0, among: lanes) }
        }
        #expect(choices(seed: 7) == choices(seed: 7))
        #expect(choices(seed: 7) != choices(seed: 8))
        #expect(Set(choices(seed: 7)) == [0, 1, 2])
    }

    // MARK: PCT

    private static let twoLanes: [ScheduleLane] = [.scheduler(1), .scheduler(2)]

    @Test func withDepthOnePCTAlwaysLetsTheSameLaneGoFirst() {
        for seed in 0..<20 {
            let chooser = ScheduleChooser(.pct(seed: UInt64(seed), depth: 1, steps: 10))
            let choices = (0..<10).map { _ in chooser.choose(.clock, tick: 0, among: Self.twoLanes) }
            #expect(Set(choices).count == 1, "seed \(seed): \(choices)")
        }
    }

    @Test func withDepthTwoPCTLowersTheLeadingLaneOnceAtItsChangePoint() {
        var switchPoints: Set<Int> = []
        for seed in 0..<40 {
            let chooser = ScheduleChooser(.pct(seed: UInt64(seed), depth: 2, steps: 10))
            let choices = (0..<10).map { _ in chooser.choose(.clock, tick: 0, among: Self.twoLanes) }
            let switches = zip(choices, choices.dropFirst()).enumerated().filter { $0.element.0 != $0.element.1 }
            // One switch, or none when the change point is the first choice (the lane lowered before it ever led).
            #expect(switches.count <= 1, "seed \(seed): \(choices)")
            if let point = switches.first?.offset { switchPoints.insert(point + 1) }
        }
        // The change point is drawn among the first ten choices.
        #expect(switchPoints.count >= 5)
        #expect(switchPoints.allSatisfy { (1..<10).contains($0) })
    }

    @Test func pctMakesTheSameChoicesForTheSameSeed() {
        let lanes: [ScheduleLane] = [.clock, .scheduler(1), .wakeUp(task: 3)]
        func choices(seed: UInt64) -> [Int] {
            let chooser = ScheduleChooser(.pct(seed: seed, depth: 3, steps: 20))
            return (0..<20).map { _ in chooser.choose(.clock, tick: 0, among: lanes) }
        }
        #expect(choices(seed: 9) == choices(seed: 9))
        #expect(Set((0..<30).map { choices(seed: UInt64($0)) }).count > 5)
    }

    @Test func pctWithMoreChangePointsThanStepsOrNoStepsNeitherTrapsNorHangs() {
        let lanes: [ScheduleLane] = [.clock, .scheduler(1)]
        for (depth, steps) in [(5, 2), (3, 0), (0, 4), (-2, -1)] {
            let chooser = ScheduleChooser(.pct(seed: 1, depth: depth, steps: steps))
            #expect((0..<3).allSatisfy { _ in (0..<2).contains(chooser.choose(.clock, tick: 0, among: lanes)) })
        }
    }

    // MARK: The depth-first walk

    /// A made-up test: two candidates first; after the first, three more; after the second, none.
    private func madeUpRun(_ choices: [Int]) -> [ScheduleChoice] {
        let chooser = ScheduleChooser(.choices(choices))
        if chooser.choose(.clock, tick: 1, among: Self.twoLanes) == 0 {
            _ = chooser.choose(.executor, tick: 1, among: [.task(1), .task(2), .task(3)])
        }
        return chooser.log
    }

    @Test func theWalkVisitsEachLeafOnceStartingFromFirstInFirstOut() {
        var choices: [Int]? = []
        var leaves: [[Int]] = []
        while let next = choices {
            let log = madeUpRun(next)
            leaves.append(log.map(\.chosen))
            choices = ScheduleWalk.next(after: log)
        }
        #expect(leaves == [[0, 0], [0, 1], [0, 2], [1]])
    }

    @Test func aRunWithNoChoicesIsTheOnlyLeaf() {
        #expect(ScheduleWalk.next(after: []) == nil)
    }
}
