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
}
