import Cadence
import Testing

/// The order of one-shot work that the clock keeps in batches — a test scheduler's `schedule` actions due on a tick
/// that already has some — against the work around it: every action still runs at its own due tick and in the order
/// it was put on the timeline, whatever the batch it went into.
///
/// While fewer than eight one-shot actions wait, each goes alone; so each test but the last starts with eight
/// waiting far ahead (`fillers`, at tick 1,000,000), and the actions it schedules go into batches.
@Suite struct VirtualClockBatchTests {
    private static let fillers = 8
    private static let far: Int64 = 1_000_000

    /// Eight one-shot actions that do nothing, due at tick 1,000,000.
    private func fill(_ clock: VirtualClock) {
        for _ in 0..<Self.fillers { clock.scheduler.schedule(after: VirtualTime(tick: Self.far)) {} }
    }

    @Test func cancellableWorkPutOnATickEndsItsBatchAndLaterOneShotWorkRunsAfterIt() {
        let clock = VirtualClock()
        fill(clock)
        let scheduler = clock.scheduler
        let log = LockedBox<[String]>([])
        for name in ["a", "b", "c"] { scheduler.schedule(after: VirtualTime(tick: 2)) { log.append(name) } }
        clock.schedule(at: .init(ticks: 2)) { log.append("cancellable") }
        for name in ["d", "e"] { scheduler.schedule(after: VirtualTime(tick: 2)) { log.append(name) } }
        let timer = clock.schedule(at: .init(ticks: 1), every: .ticks(1)) { log.append("timer@\(clock.now.ticks)") }
        scheduler.schedule(after: VirtualTime(tick: 1)) { log.append("f@1") }
        for name in ["g", "h"] { scheduler.schedule(after: VirtualTime(tick: 2)) { log.append(name) } }
        #expect(clock.pendingCount == 10 + Self.fillers)
        #expect(
            clock.pendingDueTicks == [1, 1, 2, 2, 2, 2, 2, 2, 2, 2] + Array(repeating: Self.far, count: Self.fillers)
        )
        clock.advance(by: .ticks(2))
        // The timer's second run keeps the place of its first scheduling: after d and e, before g and h.
        #expect(log.value == ["timer@1", "f@1", "a", "b", "c", "cancellable", "d", "e", "timer@2", "g", "h"])
        timer.cancel()
    }

    @Test func cancellingWorkBetweenTwoBatchesOfATickLeavesBothInOrder() {
        let clock = VirtualClock()
        fill(clock)
        let scheduler = clock.scheduler
        let log = LockedBox<[String]>([])
        let later = LockedBox<VirtualClock.ScheduledAction?>(nil)
        scheduler.schedule(after: VirtualTime(tick: 1)) { log.append("a") }
        scheduler.schedule(after: VirtualTime(tick: 1)) {
            log.append("b cancels the later one")
            later.value?.cancel()
        }
        let cancelled = clock.schedule(at: .init(ticks: 1)) { log.append("cancelled") }
        scheduler.schedule(after: VirtualTime(tick: 1)) { log.append("c") }
        scheduler.schedule(after: VirtualTime(tick: 1)) { log.append("d") }
        later.mutate { $0 = clock.schedule(at: .init(ticks: 1)) { log.append("later") } }
        scheduler.schedule(after: VirtualTime(tick: 1)) { log.append("e") }
        cancelled.cancel()
        #expect(clock.pendingCount == 6 + Self.fillers)
        clock.advance(by: .ticks(1))
        #expect(log.value == ["a", "b cancels the later one", "c", "d", "e"])
        #expect(clock.pendingCount == Self.fillers)
    }

    @Test func workScheduledFromTheBatchBeingRunRunsAfterEverythingAlreadyOnItsTick() {
        let clock = VirtualClock()
        fill(clock)
        let scheduler = clock.scheduler
        let log = LockedBox<[String]>([])
        scheduler.schedule(after: VirtualTime(tick: 1)) {
            log.append("a")
            scheduler.schedule { log.append("a's now") }
            scheduler.schedule(after: VirtualTime(tick: 2)) { log.append("a's next tick") }
            clock.schedule(after: .zero) { log.append("a's cancellable now") }
            scheduler.schedule { log.append("a's second now") }
        }
        scheduler.schedule(after: VirtualTime(tick: 1)) {
            log.append("b")
            scheduler.schedule { log.append("b's now") }
        }
        clock.schedule(at: .init(ticks: 1)) { log.append("cancellable") }
        scheduler.schedule(after: VirtualTime(tick: 1)) { log.append("c") }
        scheduler.schedule(after: VirtualTime(tick: 2)) { log.append("d@2") }
        clock.advance(by: .ticks(1))
        #expect(
            log.value == [
                "a", "b", "cancellable", "c", "a's now", "a's cancellable now", "a's second now", "b's now",
            ])
        clock.advance(by: .ticks(1))
        #expect(log.value.suffix(2) == ["d@2", "a's next tick"])
        #expect(clock.pendingCount == Self.fillers)
    }

    @Test func ticksThatShareASlotOfTheOpenBatchesKeepTheirOrder() {
        let clock = VirtualClock()
        fill(clock)
        let scheduler = clock.scheduler
        let log = LockedBox<[String]>([])
        // Ticks 128 apart (and the far ends of time) take turns at the same slot, each closing the other's batch.
        let ticks: [Int64] = [3, 131, 259, .max, 3, 131, 3, 3, .max, 259, 131, 3]
        for (index, tick) in ticks.enumerated() {
            scheduler.schedule(after: VirtualTime(tick: tick)) { log.append("\(index)@\(clock.now.ticks)") }
        }
        clock.run()
        let expected = ticks.enumerated().sorted { ($0.element, $0.offset) < ($1.element, $1.offset) }
            .map { "\($0.offset)@\($0.element)" }
        #expect(log.value == expected)
    }

    @Test func aLimitStoppingInsideABatchLeavesTheRestForTheNextCall() {
        let (clock, messages) = recordingClock()
        fill(clock)
        let scheduler = clock.scheduler
        let log = LockedBox<[Int]>([])
        for index in 0..<6 { scheduler.schedule(after: VirtualTime(tick: 4)) { log.append(index) } }
        clock.advance(to: .init(ticks: 9), limit: 4)
        #expect(log.value == [0, 1, 2, 3])
        #expect(clock.now.ticks == 4)
        #expect(clock.pendingDueTicks == [4, 4] + Array(repeating: Self.far, count: Self.fillers))
        #expect(
            messages.value == [
                "VirtualClock.advance(to:) stopped after running 4 actions at tick 4, with 10 still pending: more work was "
                    + "scheduled before the call than its limit lets it run, and none of it repeats. Pass a larger "
                    + "limit, or drive the clock in steps."
            ])
        scheduler.schedule { log.append(6) }
        clock.advance(to: .init(ticks: 9), limit: 4)
        #expect(log.value == [0, 1, 2, 3, 4, 5, 6])
        #expect(clock.now.ticks == 9)
        #expect(messages.value.count == 1)
    }

    @Test func oneShotWorkThatKeepsReschedulingItselfOnOneTickIsCalledEndless() {
        let (clock, messages) = recordingClock()
        fill(clock)
        let scheduler = clock.scheduler
        let count = LockedBox(0)
        @Sendable func again() {
            count.mutate { $0 += 1 }
            scheduler.schedule(again)
            scheduler.schedule {}
        }
        scheduler.schedule(after: VirtualTime(tick: 1), again)
        scheduler.schedule(after: VirtualTime(tick: 1)) {}
        clock.advance(by: .ticks(10), limit: 50)
        #expect(count.value == 25)
        #expect(clock.now.ticks == 1)
        #expect(
            messages.value == [
                "VirtualClock.advance(by:) stopped after running 50 actions at tick 1, with 10 still pending: an endless "
                    + "repeating timer or an action that keeps rescheduling itself never lets the clock go idle. Advance "
                    + "by a bounded duration, cancel the timer, or pass a larger limit."
            ])
        #expect(clock.end() == 2 + Self.fillers)
    }

    @Test func endCountsAndReleasesTheBatchedWorkOutsideTheLock() {
        let clock = VirtualClock()
        fill(clock)
        let scheduler = clock.scheduler
        let tracker = LifetimeTracker()
        let ran = LockedBox(0)
        for tick in [1, 2, 2, 2, 3, 3] as [Int64] {
            let token = ReleaseProbe(clock: clock, token: tracker.token())
            scheduler.schedule(after: VirtualTime(tick: tick)) {
                _ = token
                ran.mutate { $0 += 1 }
            }
        }
        scheduler.advance(by: .ticks(2))
        #expect(ran.value == 4)
        #expect(tracker.alive.value == 2)
        let ended = LockedBox(0)
        #expect(returnsWithoutDeadlock { ended.mutate { $0 = clock.end() } })
        #expect(ended.value == 2 + Self.fillers)
        #expect(tracker.alive.value == 0)
        #expect(clock.pendingDueTicks == [])
    }

    @Test func aClockReleasedWithBatchedWorkReleasesIt() {
        let tracker = LifetimeTracker()
        do {
            let scheduler = VirtualScheduler(clock: VirtualClock())
            fill(scheduler.clock)
            for _ in 0..<5 {
                let token = tracker.token()
                scheduler.schedule(after: VirtualTime(tick: 7)) { _ = token }
            }
            #expect(tracker.alive.value == 5)
        }
        #expect(tracker.alive.value == 0)
    }

    /// A few thousand random steps — one-shot work on a few ticks (so batches form, end and share slots), cancellable
    /// and repeating work, cancels, and actions that schedule more — run on a clock and on the plainest timeline that
    /// orders every entry by due tick and sequence; both must run the same actions at the same ticks in the same order.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func runsEveryActionWhereAPlainTimelineWould(seed: UInt64) {
        let clock = VirtualClock()
        let real = ClockTimeline(clock: clock)
        let plain = PlainTimeline()
        var script = Script(seed: seed)
        for _ in 0..<40 {
            let steps = script.steps()
            let target = Int64(script.next(below: 40))
            for step in steps {
                step.apply(to: real)
                step.apply(to: plain)
            }
            real.advance(by: target)
            plain.advance(by: target)
            #expect(real.log.value == plain.log)
            #expect(clock.pendingCount == plain.pendingCount)
        }
        real.cancelAll()
        plain.cancelAll()
        clock.run()
        plain.run()
        #expect(real.log.value == plain.log)
        #expect(real.log.value.count > 1000)
        clock.end()
    }
}

/// Reads the clock's `pendingCount` — which takes the clock's lock — when released: released under that lock, it
/// deadlocks.
private final class ReleaseProbe: Sendable {
    let clock: VirtualClock
    let token: LifetimeTracker.Token
    init(clock: VirtualClock, token: LifetimeTracker.Token) {
        self.clock = clock
        self.token = token
    }
    deinit { _ = clock.pendingCount }
}

// MARK: - The model

/// What a timeline under test is asked to do; each scheduled action logs its name and the tick it ran at.
private protocol Timeline: AnyObject {
    var now: Int64 { get }
    func once(_ name: Int, at tick: Int64)
    func cancellable(_ name: Int, at tick: Int64, every interval: Int64?) -> Int
    func cancel(_ handle: Int)
}

/// One random step of the script, applied alike to both timelines.
private struct Step {
    enum Kind {
        case once(tick: Int64)
        case cancellable(tick: Int64, every: Int64?)
        case cancel(handle: Int)
    }

    let name: Int
    let kind: Kind

    func apply(to timeline: some Timeline) {
        switch kind {
        case .once(let tick): timeline.once(name, at: timeline.now + tick)
        case .cancellable(let tick, let every): _ = timeline.cancellable(name, at: timeline.now + tick, every: every)
        case .cancel(let handle): timeline.cancel(handle)
        }
    }

    /// What action `name` does when it runs, after logging itself: every seventh schedules one-shot work on its own
    /// tick and the next, every eleventh cancellable work on its own tick, every thirteenth cancels some earlier work.
    static func reaction(of name: Int, on timeline: some Timeline) {
        guard name < 1_000_000 else { return }
        if name % 7 == 0 {
            timeline.once(name + 1_000_000, at: timeline.now)
            timeline.once(name + 2_000_000, at: timeline.now + 1)
        }
        if name % 11 == 0 { _ = timeline.cancellable(name + 3_000_000, at: timeline.now, every: nil) }
        if name % 13 == 0 { timeline.cancel(name / 2) }
    }
}

/// A seeded generator of steps (SplitMix64).
private struct Script {
    private var state: UInt64
    private var names = 0
    private var handles = 0

    init(seed: UInt64) { state = seed }

    mutating func next(below bound: UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return (mixed ^ (mixed >> 31)) % bound
    }

    mutating func steps() -> [Step] {
        (0..<Int(next(below: 60))).map { _ in
            names += 1
            let tick = Int64([0, 1, 2, 3, 128, 129][Int(next(below: 6))])
            switch next(below: 10) {
            case 0..<6:
                return Step(name: names, kind: .once(tick: tick))
            case 6..<8:
                handles += 1
                return Step(name: names, kind: .cancellable(tick: tick, every: nil))
            case 8:
                handles += 1
                return Step(name: names, kind: .cancellable(tick: tick, every: Int64(next(below: 5)) + 5))
            default:
                return Step(name: names, kind: .cancel(handle: Int(next(below: UInt64(handles + 1)))))
            }
        }
    }
}

/// The clock under test, driven through a test scheduler's one-shot `schedule` and the clock's cancellable one.
private final class ClockTimeline: Timeline, @unchecked Sendable { // `handles` is touched on the driving thread only
    let clock: VirtualClock
    let log = LockedBox<[String]>([])
    private var handles: [VirtualClock.ScheduledAction] = []

    init(clock: VirtualClock) { self.clock = clock }

    var now: Int64 { clock.now.ticks }

    func once(_ name: Int, at tick: Int64) {
        clock.scheduler.schedule(after: VirtualTime(tick: tick)) { [self] in ran(name) }
    }

    func cancellable(_ name: Int, at tick: Int64, every interval: Int64?) -> Int {
        let action = { [self] in ran(name) }
        handles.append(
            interval.map { clock.schedule(at: .init(ticks: tick), every: .ticks(Int($0)), action) }
                ?? clock.schedule(at: .init(ticks: tick), action))
        return handles.count - 1
    }

    func cancel(_ handle: Int) {
        if handle < handles.count { handles[handle].cancel() }
    }

    func cancelAll() { handles.forEach { $0.cancel() } }

    func advance(by ticks: Int64) { clock.advance(by: .ticks(Int(ticks))) }

    private func ran(_ name: Int) {
        log.append("\(name)@\(now)")
        Step.reaction(of: name, on: self)
    }
}

/// The plainest timeline: an array of entries, the one with the least due tick and sequence run next; repeating work
/// keeps the sequence it was first scheduled with.
private final class PlainTimeline: Timeline {
    private struct Entry {
        var due: Int64
        var sequence: Int
        let name: Int
        let handle: Int?
        let interval: Int64?

        var key: (Int64, Int) { (due, sequence) }
    }

    private(set) var now: Int64 = 0
    private(set) var log: [String] = []
    private var entries: [Entry] = []
    private var sequence = 0
    private var handles = 0
    private var cancelled: Set<Int> = []

    var pendingCount: Int { entries.count }

    func once(_ name: Int, at tick: Int64) {
        put(Entry(due: tick, sequence: 0, name: name, handle: nil, interval: nil))
    }

    func cancellable(_ name: Int, at tick: Int64, every interval: Int64?) -> Int {
        handles += 1
        put(Entry(due: tick, sequence: 0, name: name, handle: handles - 1, interval: interval))
        return handles - 1
    }

    func cancel(_ handle: Int) {
        guard handle < handles else { return }
        cancelled.insert(handle)
        entries.removeAll { $0.handle == handle }
    }

    func cancelAll() { (0..<handles).forEach(cancel) }

    func advance(by ticks: Int64) { run(through: now + ticks) }

    func run(through target: Int64? = nil) {
        while let index = entries.indices.min(by: { entries[$0].key < entries[$1].key }),
            target.map({ entries[index].due <= $0 }) ?? true
        {
            var entry = entries.remove(at: index)
            now = entry.due
            if let interval = entry.interval {
                // Re-armed with the sequence it was first scheduled with.
                entry.due += interval
                entries.append(entry)
            }
            log.append("\(entry.name)@\(now)")
            Step.reaction(of: entry.name, on: self)
        }
        if let target { now = max(now, target) }
    }

    private func put(_ entry: Entry) {
        if let handle = entry.handle, cancelled.contains(handle) { return }
        var entry = entry
        entry.due = max(entry.due, now)
        entry.sequence = sequence
        sequence += 1
        entries.append(entry)
    }
}
