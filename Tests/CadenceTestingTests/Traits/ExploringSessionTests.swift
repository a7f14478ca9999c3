import Cadence
import Testing

@testable import CadenceTesting

/// A session that explores schedules (a `VirtualTimeSession` made with a `ScheduleChooser`): the wake-ups of tasks
/// due at one tick, and the ready jobs of different tasks, go in the order the chooser picks; the main actor's jobs
/// keep their order, as its queue does.
@Suite struct ExploringSessionTests {
    /// Three tasks asleep until tick 10, each noting its number when it wakes: the order they noted.
    private func wakeOrder(_ chooser: ScheduleChooser?, onMainActor: Bool = false) async -> [Int] {
        let order = Synchronized<[Int]>([])
        let session = VirtualTimeSession(
            api: "withVirtualTime", bodyName: "body", horizon: .seconds(1), leftovers: .fail,
            failures: .resolved, notes: .resolvedForNotes,
            location: SourceCodeLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column),
            chooser: chooser
        )
        await session.run(isolation: nil) { clock in
            var tasks: [Task<Void, Never>] = []
            for index in 1...3 {
                if onMainActor {
                    tasks.append(
                        Task { @MainActor in
                            try? await clock.sleep(for: .ticks(10))
                            order.withLock { $0.append(index) }
                        })
                } else {
                    tasks.append(
                        Task {
                            try? await clock.sleep(for: .ticks(10))
                            order.withLock { $0.append(index) }
                        })
                }
            }
            await clock.advance(by: .ticks(10))
            for task in tasks { await task.value }
        }
        return order.withLock { $0 }
    }

    @Test func aFirstInFirstOutChooserKeepsTodaysOrder() async {
        let plain = await wakeOrder(nil)
        #expect(plain == [1, 2, 3])
        let chooser = ScheduleChooser(.firstInFirstOut)
        #expect(await wakeOrder(chooser) == plain)
        #expect(!chooser.log.isEmpty)
        #expect(chooser.deviations.isEmpty)
    }

    @Test func threeTasksWakingAtOneInstantReachAtLeastFiveOfTheirSixOrdersIn100Runs() async {
        var orders: Set<[Int]> = []
        for seed in 0..<100 {
            let order = await wakeOrder(ScheduleChooser(.uniform(seed: UInt64(seed))))
            #expect(order.sorted() == [1, 2, 3])
            orders.insert(order)
        }
        #expect(orders.count >= 5, "orders reached: \(orders.sorted { $0.lexicographicallyPrecedes($1) })")
    }

    @Test func threeTasksOnTheMainActorReachTheirOrdersThroughTheirWakeUps() async {
        var orders: Set<[Int]> = []
        for seed in 0..<100 {
            orders.insert(await wakeOrder(ScheduleChooser(.uniform(seed: UInt64(seed))), onMainActor: true))
        }
        #expect(orders.count >= 5, "orders reached: \(orders.sorted { $0.lexicographicallyPrecedes($1) })")
        #expect(await wakeOrder(nil, onMainActor: true) == [1, 2, 3])
    }

    @Test func aSeedGivesTheSameOrderEveryTime() async {
        let first = await wakeOrder(ScheduleChooser(.uniform(seed: 11)))
        for _ in 0..<20 { #expect(await wakeOrder(ScheduleChooser(.uniform(seed: 11))) == first) }
    }
}
