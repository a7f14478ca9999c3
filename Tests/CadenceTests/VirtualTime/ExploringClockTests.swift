import Cadence
import Dispatch
import Testing

/// A clock that explores schedules (`VirtualClock(chooser:)`): work of different lanes due at one tick runs
/// in the order its chooser picks, while each lane — the clock's own actions, one test scheduler's actions, the
/// wake-ups of sleeps — keeps its order, as a serial queue does in production.
@Suite struct ExploringClockTests {
    private typealias Scheduler = TestSchedulerOf<DispatchQueue>

    /// Two schedulers with three actions each at tick 10, run under `strategy`: the order the actions ran in.
    private func twoSchedulers(_ strategy: ScheduleStrategy) -> (order: String, log: [ScheduleChoice]) {
        let chooser = ScheduleChooser(strategy)
        let clock = VirtualClock(chooser: chooser)
        let (a, b) = (Scheduler(clock: clock), Scheduler(clock: clock))
        var order = ""
        for index in 1...3 {
            a.schedule(after: a.now.advanced(by: .milliseconds(10))) { order += "a\(index)" }
            b.schedule(after: b.now.advanced(by: .milliseconds(10))) { order += "b\(index)" }
        }
        clock.run()
        return (order, chooser.log)
    }

    @Test func twoSchedulersInterleaveInEveryWayWhileEachKeepsItsOwnOrder() {
        // Every sequence of five binary choices: the sixth action is always the only one left.
        var orders: Set<String> = []
        for bits in 0..<32 {
            let (order, log) = twoSchedulers(.choices((0..<5).map { bits >> $0 & 1 }))
            let actions = stride(from: 0, to: order.count, by: 2).map {
                String(order.dropFirst($0).prefix(2))
            }
            #expect(actions.filter { $0.hasPrefix("a") } == ["a1", "a2", "a3"])
            #expect(actions.filter { $0.hasPrefix("b") } == ["b1", "b2", "b3"])
            #expect(log.allSatisfy { $0.tick == 10 && Set($0.candidates) == [.scheduler(1), .scheduler(2)] })
            orders.insert(order)
        }
        // The merges of two lanes of three: 6 choose 3.
        #expect(orders.count == 20)
    }

    @Test func theWalkRunsEachInterleavingOfTwoSchedulersOnce() {
        var choices: [Int]? = []
        var orders: [String] = []
        while let next = choices, orders.count < 100 {
            let (order, log) = twoSchedulers(.choices(next))
            orders.append(order)
            choices = ScheduleWalk.next(after: log)
        }
        #expect(orders.count == 20)
        #expect(Set(orders).count == 20)
        #expect(orders.first == "a1b1a2b2a3b3")
    }

    @Test func uniformChoicesReachEveryInterleavingOfTwoSchedulers() {
        let orders = Set((0..<300).map { twoSchedulers(.uniform(seed: UInt64($0))).order })
        #expect(orders.count == 20)
    }

    @Test func firstInFirstOutOnAnExploringClockIsTodaysOrder() {
        #expect(twoSchedulers(.firstInFirstOut).order == "a1b1a2b2a3b3")
        #expect(twoSchedulers(.firstInFirstOut).log.count == 5)
    }

    /// Everything a clock orders — the clock's own actions, two schedulers, a repeating timer, a cancelled action,
    /// actions scheduled by actions at their own tick, ticks in the past — runs on an exploring clock that always
    /// takes the first candidate exactly as on a plain clock.
    @Test func aFirstInFirstOutChooserChangesNothing() {
        func trace(_ clock: VirtualClock) -> [String] {
            var log: [String] = []
            let (a, b) = (Scheduler(clock: clock), Scheduler(clock: clock))
            let timer = a.schedule(
                after: a.now.advanced(by: .milliseconds(2)), interval: .milliseconds(3)
            ) { log.append("timer@\(clock.now.ticks)") }
            for tick in [5, 2, 8, 5] {
                a.schedule(after: a.now.advanced(by: .milliseconds(tick))) {
                    log.append("a@\(clock.now.ticks)")
                    b.schedule { log.append("b-now@\(clock.now.ticks)") }
                }
                clock.schedule(at: .init(ticks: Int64(tick))) { log.append("clock@\(clock.now.ticks)") }
                b.schedule(after: b.now.advanced(by: .milliseconds(tick))) { log.append("b@\(clock.now.ticks)") }
            }
            clock.schedule(at: .init(ticks: 5)) { log.append("cancelled") }.cancel()
            clock.schedule(at: .init(ticks: 9)) { timer.cancel() }
            clock.advance(by: .ticks(4))
            a.schedule(after: a.now.advanced(by: .milliseconds(-3))) { log.append("past@\(clock.now.ticks)") }
            clock.run()
            return log
        }
        let chooser = ScheduleChooser(.firstInFirstOut)
        let exploring = trace(VirtualClock(chooser: chooser))
        #expect(exploring == trace(VirtualClock()))
        #expect(!chooser.log.isEmpty)
    }

    @Test func oneSchedulersActionsAndTheClocksOwnActionsAreOneLaneEach() {
        let chooser = ScheduleChooser(.uniform(seed: 1))
        let clock = VirtualClock(chooser: chooser)
        let scheduler = Scheduler(clock: clock)
        var order: [String] = []
        for index in 1...4 {
            scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(1))) { order.append("s\(index)") }
        }
        clock.run()
        for index in 1...4 { clock.schedule(at: .init(ticks: 2)) { order.append("c\(index)") } }
        clock.run()
        #expect(order == ["s1", "s2", "s3", "s4", "c1", "c2", "c3", "c4"])
        #expect(chooser.log.isEmpty)
    }

    @Test func aSchedulersTimerAndItsOneShotActionsKeepTheirOrder() {
        for seed in 0..<20 {
            let clock = VirtualClock(chooser: ScheduleChooser(.uniform(seed: UInt64(seed))))
            let (a, b) = (Scheduler(clock: clock), Scheduler(clock: clock))
            var order: [String] = []
            let timer = a.schedule(after: a.now.advanced(by: .milliseconds(2)), interval: .milliseconds(2)) {
                order.append("timer")
            }
            a.schedule(after: a.now.advanced(by: .milliseconds(4))) { order.append("once") }
            b.schedule(after: b.now.advanced(by: .milliseconds(4))) { order.append("b") }
            clock.advance(by: .ticks(4))
            timer.cancel()
            // a's timer at tick 2; at tick 4 a's timer (scheduled first) before a's one-shot, b's anywhere.
            #expect(order.filter { $0 != "b" } == ["timer", "timer", "once"], "seed \(seed): \(order)")
            #expect(order.count == 4)
        }
    }

    @Test func workDueAtDifferentTicksIsNeverReordered() {
        let chooser = ScheduleChooser(.uniform(seed: 3))
        let clock = VirtualClock(chooser: chooser)
        let (a, b) = (Scheduler(clock: clock), Scheduler(clock: clock))
        var order: [String] = []
        b.schedule(after: b.now.advanced(by: .milliseconds(2))) { order.append("b@2") }
        a.schedule(after: a.now.advanced(by: .milliseconds(1))) { order.append("a@1") }
        clock.schedule(at: .init(ticks: 3)) { order.append("clock@3") }
        clock.run()
        #expect(order == ["a@1", "b@2", "clock@3"])
        #expect(chooser.log.isEmpty)
    }

    @Test func workAnActionSchedulesForItsOwnTickJoinsTheChoicesOfThatTick() {
        // a1 schedules a2 at tick 1: with b1 still waiting, a2 and b1 are a choice; a2 never runs before a1.
        var orders: Set<[String]> = []
        for first in 0..<2 {
            for second in 0..<2 {
                let chooser = ScheduleChooser(.choices([first, second]))
                let clock = VirtualClock(chooser: chooser)
                let (a, b) = (Scheduler(clock: clock), Scheduler(clock: clock))
                var order: [String] = []
                a.schedule(after: a.now.advanced(by: .milliseconds(1))) {
                    order.append("a1")
                    a.schedule { order.append("a2") }
                }
                b.schedule(after: b.now.advanced(by: .milliseconds(1))) { order.append("b1") }
                clock.run()
                orders.insert(order)
            }
        }
        #expect(orders == [["a1", "a2", "b1"], ["a1", "b1", "a2"], ["b1", "a1", "a2"]])
    }

    @Test func aCancelledActionIsNoCandidate() {
        let chooser = ScheduleChooser(.choices([1]))
        let clock = VirtualClock(chooser: chooser)
        let scheduler = Scheduler(clock: clock)
        var order: [String] = []
        let cancelled = scheduler.schedule(
            after: scheduler.now.advanced(by: .milliseconds(1)), interval: .milliseconds(5)
        ) { order.append("cancelled") }
        clock.schedule(at: .init(ticks: 1)) { order.append("clock") }
        cancelled.cancel()
        clock.run()
        #expect(order == ["clock"])
        #expect(chooser.log.isEmpty)
        #expect(clock.pendingCount == 0)
    }
}

/// The wake-ups of tasks asleep on an exploring clock: each task is a lane of its own.
@Suite struct ExploringClockSleepTests {
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func theWakeUpsOfThreeTasksAtOneTickAreThreeLanes() async throws {
        let chooser = ScheduleChooser(.choices([2, 1]))
        let clock = VirtualClock(chooser: chooser)
        let woken = LockedBox<[Int]>([])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 1...3 {
                // Immediate: each task is asleep before the clock moves, whatever else the process runs.
                group.addImmediateTask {
                    try await clock.sleep(until: .init(ticks: 10), tolerance: nil)
                    woken.mutate { $0.append(index) }
                }
            }
            await clock.advance(by: .ticks(10))
            try await group.waitForAll()
        }
        #expect(woken.value.sorted() == [1, 2, 3])
        let choices = chooser.log
        #expect(choices.map(\.tick) == [10, 10])
        #expect(choices.map(\.candidates.count) == [3, 2])
        #expect(choices.map(\.chosen) == [2, 1])
        let lanes = Set(choices[0].candidates)
        #expect(lanes.count == 3)
        #expect(lanes.allSatisfy { if case .wakeUp(let task) = $0 { task != 0 } else { false } })
    }
}
