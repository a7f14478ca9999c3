import Cadence
import CadenceTesting
import Dispatch
import Testing

/// A checkout whose response and timeout both land at tick 100, written with the race the guide fixes: whichever of
/// the two runs first at that instant decides, so the first-in first-out order (the response's sleep began first)
/// confirms and the other order times out.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
private final class RacyCheckout: Sendable {
    enum State: Equatable, Sendable { case idle, waiting, confirmed, timedOut }
    private let current = Synchronized(State.idle)
    private let tasks = Synchronized<[Task<Void, Never>]>([])
    let fixed: Bool

    init(fixed: Bool = false) {
        self.fixed = fixed
    }

    var state: State { current.withLock { $0 } }

    func submit(on clock: VirtualClock) {
        current.withLock { $0 = .waiting }
        let deadline = clock.now.advanced(by: .milliseconds(100))
        let response = Task(name: "response") {
            try? await clock.sleep(for: .milliseconds(100))
            let fixed = fixed
            current.withLock { state in
                // Fixed: an answer that came by the deadline counts, whichever of the two ran first then.
                if state == .waiting || (fixed && state == .timedOut && clock.now <= deadline) { state = .confirmed }
            }
        }
        let timeout = Task(name: "timeout") {
            try? await clock.sleep(for: .milliseconds(100))
            current.withLock { state in
                if state == .waiting { state = .timedOut }
            }
        }
        tasks.withLock { $0 += [response, timeout] }
    }

    func settle() async {
        for task in tasks.withLock({ $0 }) { await task.value }
    }
}

/// A checkout whose answer comes on the network queue and whose timeout fires on the main queue, both 100 ms after
/// the order: two serial queues, so either may go first at that instant. Unfixed, whichever goes first decides.
private final class QueueCheckout: Sendable {
    let state = Synchronized("idle")
    let network = DispatchQueue.test
    let main = DispatchQueue.test
    let fixed: Bool

    init(fixed: Bool = false) {
        self.fixed = fixed
    }

    func submit() {
        state.withLock { $0 = "waiting" }
        let deadline = main.now.advanced(by: .milliseconds(100))
        network.schedule(after: network.now.advanced(by: .milliseconds(100))) { [self] in
            let arrived = network.now
            // Fixed: an answer that arrived by the deadline counts, even after the timeout ran at that instant.
            state.withLock { state in
                if state == "waiting" || (fixed && state == "timed out" && arrived <= deadline) {
                    state = "confirmed"
                }
            }
        }
        main.schedule(after: deadline) { [self] in
            state.withLock { if $0 == "waiting" { $0 = "timed out" } }
        }
    }
}

/// The number of runs a body made, counted outside it.
private final class RunCount: Sendable {
    private let count = Synchronized(0)
    func next() -> Int {
        count.withLock {
            $0 += 1
            return $0
        }
    }
    var value: Int { count.withLock { $0 } }
}

/// `withVirtualTime(explore:)`, `withVirtualTime(schedule:)` and the trait's forms: a race the first-in first-out run
/// passes is found, named and replayed; race-free code passes every schedule; bad input is reported.
@Suite struct ScheduleExplorationTests {
    /// The body of the racy checkout's test, failing through an expectation when the checkout does not confirm.
    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    private func checkoutBody(fixed: Bool, runs: RunCount) -> (VirtualClock) async -> Void {
        { clock in
            _ = runs.next()
            let checkout = RacyCheckout(fixed: fixed)
            checkout.submit(on: clock)
            await clock.advance(by: .milliseconds(100))
            await checkout.settle()
            expect(Just(checkout.state)).toEmit(.confirmed).thenFinish()
        }
    }

    /// The body of the queue checkout's test, failing through an expectation when the checkout does not confirm.
    private func queueCheckoutBody(fixed: Bool, runs: RunCount) -> (VirtualClock) -> Void {
        { clock in
            _ = runs.next()
            let checkout = QueueCheckout(fixed: fixed)
            checkout.submit()
            clock.advance(by: .milliseconds(100))
            expect(Just(checkout.state.withLock { $0 })).toEmit("confirmed").thenFinish()
        }
    }

    @Test func aRaceTheFirstInFirstOutRunPassesIsFoundAndReportedWithItsSeed() throws {
        let runs = RunCount()
        let line = #line + 2
        let failures = recordingFailures {
            withVirtualTime(explore: 50, queueCheckoutBody(fixed: false, runs: runs))
        }
        // Run 1 (the answer first) passes; run 2, the one other order, fails, and the exploration stops there.
        #expect(runs.value == 2)
        try #require(failures.count == 2)
        #expect(failures[0].message.contains("received \"timed out\" at tick 100"))
        #expect(failures[1].location.line == line)
        #expect(
            failures[1].message == """
                withVirtualTime(explore: 50): run 2 failed; run 1 passed, in first-in first-out order.
                It fails in schedule 0x1E20000000000001, which differs from first-in first-out order in 1 choice:
                  at tick 100, the action of the 2nd DispatchQueue.test ran before the action of the 1st \
                DispatchQueue.test
                Replay that schedule, run after run, with withVirtualTime(schedule: 0x1E20000000000001).
                """)
    }

    @Test func theQueueCheckoutsSeedReplaysTheSameFailure20TimesOutOf20AndTheFixPassesIt() {
        for _ in 1...20 {
            let runs = RunCount()
            let replayed = recordingFailures {
                withVirtualTime(schedule: 0x1E20_0000_0000_0001, queueCheckoutBody(fixed: false, runs: runs))
            }
            #expect(runs.value == 1)
            #expect(replayed.count == 1)
            #expect(replayed.first?.message.contains("received \"timed out\" at tick 100") == true)
        }
        let fixed = recordingFailures {
            withVirtualTime(schedule: 0x1E20_0000_0000_0001, queueCheckoutBody(fixed: true, runs: RunCount()))
            withVirtualTime(explore: 50, queueCheckoutBody(fixed: true, runs: RunCount()))
        }
        #expect(fixed.isEmpty)
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func aRaceBetweenTasksIsFoundAndNamedByTheTasksNames() async throws {
        let runs = RunCount()
        let failures = await recordingFailures {
            await withVirtualTime(explore: 50, checkoutBody(fixed: false, runs: runs))
        }
        try #require(failures.count == 2)
        #expect(failures[0].message.contains("received RacyCheckout.State.timedOut at tick 100"))
        let report = failures[1].message
        let lines = report.split(separator: "\n", omittingEmptySubsequences: false)
        // Found in a random run, then made smaller: the runs counted include the search for a smaller schedule.
        #expect(lines.first?.hasPrefix("withVirtualTime(explore: 50): run ") == true)
        #expect(lines.first?.hasSuffix(" passed, run 1 in first-in first-out order.") == true)
        #expect(lines.dropFirst().first?.hasPrefix("It fails in schedule 0x1") == true)
        #expect(report.contains("the task named \"timeout\" ran before the task named \"response\""))
        let seed = try #require(Self.seed(in: report))
        #expect(lines.last == "Replay that schedule, run after run, with withVirtualTime(schedule: \(seed)).")
        #expect(runs.value > 2)
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func theSeedReplaysTheSameFailure20TimesOutOf20() async throws {
        let failures = await recordingFailures {
            await withVirtualTime(explore: 50, checkoutBody(fixed: false, runs: RunCount()))
        }
        let printed = try #require(Self.seed(in: failures.last?.message ?? ""))
        let seed = try #require(UInt64(printed.dropFirst(2), radix: 16))
        for _ in 1...20 {
            let runs = RunCount()
            let replayed = await recordingFailures {
                await withVirtualTime(schedule: seed, checkoutBody(fixed: false, runs: runs))
            }
            #expect(runs.value == 1)
            #expect(replayed.map(\.message) == [failures[0].message])
        }
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func theFixedCheckoutPassesEverySchedule() async {
        let runs = RunCount()
        let failures = await recordingFailures {
            await withVirtualTime(explore: 50, checkoutBody(fixed: true, runs: runs))
        }
        #expect(failures.isEmpty)
        #expect(runs.value == 50)
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test(.quietKnownIssues) func aRaceFoundThroughExpectIsReportedWithTheExplorationsOwnReport() async {
        let messages = Synchronized<[String]>([])
        await withKnownIssue {
            await withVirtualTime(explore: 50) { clock in
                let checkout = RacyCheckout()
                checkout.submit(on: clock)
                await clock.advance(by: .milliseconds(100))
                await checkout.settle()
                #expect(checkout.state == .confirmed)
            }
        } matching: { issue in
            messages.withLock { $0.append(issue.comments.map(\.rawValue).joined()) }
            return true
        }
        let recorded = messages.withLock { $0 }
        // The failing run's #expect, then the exploration's report; the runs that looked for a smaller failing
        // schedule recorded their failures as known issues of their own, not here.
        #expect(recorded.count == 2)
        #expect(recorded.last?.hasPrefix("withVirtualTime(explore: 50): run ") == true)
        #expect(recorded.last?.contains("It fails in schedule 0x1") == true)
    }

    @Test func threeTasksAtOneInstantReachAtLeastFiveOfTheirSixOrdersIn100Runs() async {
        let orders = Synchronized<Set<[Int]>>([])
        let runs = RunCount()
        await withVirtualTime(explore: 100) { clock in
            _ = runs.next()
            let order = Synchronized<[Int]>([])
            var tasks: [Task<Void, Never>] = []
            for index in 1...3 {
                tasks.append(
                    Task {
                        try? await clock.sleep(for: .ticks(10))
                        order.withLock { $0.append(index) }
                    })
            }
            await clock.advance(by: .ticks(10))
            for task in tasks { await task.value }
            let seen = order.withLock { $0 }
            orders.withLock { _ = $0.insert(seen) }
        }
        #expect(orders.withLock { $0.count } >= 5)
    }

    @Test @MainActor func tasksStartedOnTheMainActorRunInTheOrderStartedInEverySchedule() async {
        let orders = Synchronized<Set<[Int]>>([])
        let runs = RunCount()
        await withVirtualTime(explore: 50) { clock in
            _ = runs.next()
            let order = Synchronized<[Int]>([])
            var tasks: [Task<Void, Never>] = []
            for index in 1...3 {
                tasks.append(Task { @MainActor in order.withLock { $0.append(index) } })
            }
            for task in tasks { await task.value }
            let seen = order.withLock { $0 }
            orders.withLock { _ = $0.insert(seen) }
        }
        // The main queue is serial: whatever else is chosen, its jobs keep their order.
        #expect(orders.withLock { $0 } == [[1, 2, 3]])
        #expect(runs.value > 1, "the body met no choice: nothing was explored")
    }

    @Test func twoSchedulersInterleaveEachKeepingItsOrderInAll20Merges() {
        let merges = Synchronized<Set<[String]>>([])
        let runs = RunCount()
        withVirtualTime(explore: 50) { clock in
            _ = runs.next()
            let order = Synchronized<[String]>([])
            let first = DispatchQueue.test
            let second = DispatchQueue.test
            for index in 1...3 {
                first.schedule(after: first.now.advanced(by: .milliseconds(10))) {
                    order.withLock { $0.append("a\(index)") }
                }
                second.schedule(after: second.now.advanced(by: .milliseconds(10))) {
                    order.withLock { $0.append("b\(index)") }
                }
            }
            clock.advance(by: .milliseconds(10))
            let seen = order.withLock { $0 }
            #expect(seen.filter { $0.hasPrefix("a") } == ["a1", "a2", "a3"])
            #expect(seen.filter { $0.hasPrefix("b") } == ["b1", "b2", "b3"])
            merges.withLock { _ = $0.insert(seen) }
        }
        #expect(merges.withLock { $0.count } == 20)
        #expect(runs.value == 20)
    }

    @Test func oneSchedulersActionsMakeOneSchedule() {
        let runs = RunCount()
        withVirtualTime(explore: 50) { clock in
            _ = runs.next()
            let queue = DispatchQueue.test
            let order = Synchronized<[Int]>([])
            for index in 1...6 {
                queue.schedule(after: queue.now.advanced(by: .milliseconds(10))) { order.withLock { $0.append(index) } }
            }
            clock.advance(by: .milliseconds(10))
            #expect(order.withLock { $0 } == [1, 2, 3, 4, 5, 6])
        }
        #expect(runs.value == 1)
    }

    @Test func aThrownErrorEndsTheExplorationAndGoesThrough() throws {
        struct Declined: Error {}
        let runs = RunCount()
        let failures = recordingFailures {
            #expect(throws: Declined.self) {
                try withVirtualTime(explore: 50) { clock in
                    _ = runs.next()
                    let order = Synchronized<[Int]>([])
                    let first = DispatchQueue.test
                    let second = DispatchQueue.test
                    first.schedule(after: first.now.advanced(by: .milliseconds(10))) {
                        order.withLock { $0.append(1) }
                    }
                    second.schedule(after: second.now.advanced(by: .milliseconds(10))) {
                        order.withLock { $0.append(2) }
                    }
                    clock.advance(by: .milliseconds(10))
                    if order.withLock({ $0 }) != [1, 2] { throw Declined() }
                }
            }
        }
        // Two runs, the second failing: a single choice, so no smaller schedule to look for.
        #expect(runs.value == 2)
        #expect(failures.count == 1)
        #expect(
            failures.first?.message.hasPrefix("withVirtualTime(explore: 50): run 2 failed; run 1 passed") == true)
        #expect(
            failures.first?.message.contains(
                "at tick 10, the action of the 2nd DispatchQueue.test ran before the action of the 1st "
                    + "DispatchQueue.test") == true)
    }

    @Test func aFailingFirstRunIsReportedAsAPlainRunAndEndsTheExploration() {
        let runs = RunCount()
        let failures = recordingFailures {
            withVirtualTime(explore: 50) { _ in
                _ = runs.next()
                expect(Just(1)).toEmit(2)
            }
        }
        #expect(runs.value == 1)
        #expect(failures.count == 1)
        #expect(failures.first?.message.hasPrefix("toEmit(2) failed") == true)
    }

    // MARK: Bad input

    @Test(arguments: [0, -3])
    func exploreWithNoRunsIsReportedAndRunsTheBodyOnce(runs count: Int) {
        let runs = RunCount()
        let line = #line + 2
        let failures = recordingFailures {
            withVirtualTime(explore: count) { _ in _ = runs.next() }
        }
        #expect(runs.value == 1)
        #expect(failures.map(\.location.line) == [line])
        #expect(
            failures.map(\.message) == [
                "withVirtualTime(explore: \(count)) was given \(count) runs; exploring needs at least 1 (the first run "
                    + "keeps first-in first-out order), so the body ran once, in first-in first-out order."
            ])
    }

    @Test func aSeedOfAnotherFormatIsReportedAndTheBodyRunsOnce() async {
        let runs = RunCount()
        let failures = await recordingFailures {
            await withVirtualTime(schedule: 0xF000_0000_0000_0001) { _ in
                _ = runs.next()
                await Task.yield()
            }
        }
        #expect(runs.value == 1)
        #expect(
            failures.map(\.message) == [
                "withVirtualTime(schedule: 0xF000000000000001) was given a seed this version of Cadence cannot "
                    + "replay: the seeds it prints begin with 0x1, 0x2 or 0x3, and this one begins with 0xF — from "
                    + "another version, or not printed by an exploration. The body ran once, in first-in first-out "
                    + "order; explore again with withVirtualTime(explore:) to get a seed this version replays."
            ])
    }

    @Test func aSeedForOtherCodeIsReportedAfterItsRun() {
        // The queue checkout's seed (two queues due at one tick), replayed against three.
        let runs = RunCount()
        let line = #line + 2
        let failures = recordingFailures {
            withVirtualTime(schedule: 0x1E20_0000_0000_0001) { clock in
                _ = runs.next()
                let queues = [DispatchQueue.test, DispatchQueue.test, DispatchQueue.test]
                for queue in queues { queue.schedule(after: queue.now.advanced(by: .milliseconds(100))) {} }
                clock.advance(by: .milliseconds(100))
            }
        }
        #expect(runs.value == 1)
        #expect(failures.map(\.location.line) == [line])
        #expect(
            failures.map(\.message) == [
                "withVirtualTime(schedule: 0x1E20000000000001) did not replay the schedule it was printed for: this "
                    + "run came to its same-instant choices differently (fingerprint 0x8E; the seed's is 0xE2). The "
                    + "test, the code it runs or Cadence has changed since the seed was printed, or the body keeps "
                    + "state from one run to the next. Explore again with withVirtualTime(explore:) to find a seed "
                    + "for the code as it is."
            ])
    }

    @Test func aSchedulerKeptFromAnEarlierRunIsReportedAsABodyThatIsNotReRunnable() {
        let kept = Synchronized<TestSchedulerOf<DispatchQueue>?>(nil)
        let failures = recordingFailures {
            withVirtualTime(explore: 5) { clock in
                let queue = kept.withLock { kept in
                    if kept == nil { kept = DispatchQueue.test }
                    return kept!
                }
                let other = DispatchQueue.test
                queue.schedule(after: queue.now.advanced(by: .milliseconds(10))) {}
                other.schedule(after: other.now.advanced(by: .milliseconds(10))) {}
                clock.advance(by: .milliseconds(10))
            }
        }
        // Run 2 reports the kept scheduler, and then comes to no choice where the walk forces one.
        #expect(failures.count == 2)
        #expect(failures.last?.message.hasPrefix("withVirtualTime(explore: 5): run 2 came to its same-instant") == true)
        #expect(
            failures.first?.message
                == "TestScheduler.schedule(after:tolerance:options:_:) was called on the clock of run 1 of "
                + "withVirtualTime(explore: 5), which ended with that run (at tick 10): the body is not re-runnable — "
                + "it keeps a scheduler, a clock or a task from an earlier run outside the body. Make what the body "
                + "uses inside it, so that each run starts afresh; the action will never run.")
    }

    @Test func aBodyThatComesToOtherChoicesWhereTheWalkForcesItsOwnIsReported() {
        let runs = RunCount()
        let line = #line + 2
        let failures = recordingFailures {
            withVirtualTime(explore: 50) { clock in
                // Each run makes one scheduler more than the run before: state kept outside the body.
                let count = runs.next() + 1
                let queues = (0..<count).map { _ in DispatchQueue.test }
                for queue in queues { queue.schedule(after: queue.now.advanced(by: .milliseconds(10))) {} }
                clock.advance(by: .milliseconds(10))
            }
        }
        #expect(runs.value == 2)
        #expect(failures.map(\.location.line) == [line])
        #expect(
            failures.map(\.message) == [
                "withVirtualTime(explore: 50): run 2 came to its same-instant choices differently from run 1 before "
                    + "the point where they should part (at tick 10, 3 candidates instead of 2): the body is not "
                    + "re-runnable — it keeps state outside the body from one run to the next, or depends on real "
                    + "time or real queues. Make what the body uses inside it. Exploration stopped after run 2."
            ])
    }

    @Test func anExplorationInsideAnotherIsReportedAndRunsOnce() {
        let inner = RunCount()
        let failures = recordingFailures {
            withVirtualTime(explore: 3) { _ in
                withVirtualTime(explore: 2) { _ in _ = inner.next() }
                withVirtualTime(schedule: 0x1000_0000_0000_0000) { _ in _ = inner.next() }
                withVirtualTime { _ in _ = inner.next() }
            }
        }
        // The outer body has no choices: one run, and each inner call runs once.
        #expect(inner.value == 3)
        #expect(
            failures.map(\.message) == [
                "withVirtualTime(explore: 2) was called inside the exploration of withVirtualTime(explore: 3): "
                    + "exploring inside an exploration would multiply the runs, and its seeds could not be replayed "
                    + "apart. Explore at one level only; the inner body ran once, in first-in first-out order.",
                "withVirtualTime(schedule: 0x1000000000000000) was called inside the exploration of "
                    + "withVirtualTime(explore: 3): a schedule replayed inside an exploration would not be the "
                    + "schedule it was printed for. Replay at one level only; the inner body ran once, in first-in "
                    + "first-out order.",
            ])
    }

    /// The seed a report prints, `0x` and sixteen hex digits.
    static func seed(in message: String) -> String? {
        guard let range = message.range(of: "fails in schedule 0x") else { return nil }
        let start = message.index(range.upperBound, offsetBy: -2)
        let end = message.index(start, offsetBy: 18, limitedBy: message.endIndex) ?? message.endIndex
        return String(message[start..<end])
    }
}

/// The trait's forms, `.virtualTime(explore:)` and `.virtualTime(schedule:)`: each run of the test case is a call of
/// the test function, with a fresh suite instance and clock.
@Suite struct ScheduleExplorationTraitTests {
    /// The queue checkout's test as a test function under the trait: the clock is the run's `VirtualClock.current`.
    private static func checkoutTest(fixed: Bool, runs: RunCount) -> @Sendable () async throws -> Void {
        {
            _ = runs.next()
            let checkout = QueueCheckout(fixed: fixed)
            checkout.submit()
            VirtualClock.current?.advance(by: .milliseconds(100))
            expect(Just(checkout.state.withLock { $0 })).toEmit("confirmed").thenFinish()
        }
    }

    @Test func theTraitFindsTheRaceReportsItAtTheTestAndReplaysIt() async throws {
        let test = try #require(Test.current)
        let runs = RunCount()
        let failures = await recordingFailures {
            try? await VirtualTimeTrait.virtualTime(explore: 50).provideScope(
                for: test, testCase: Test.Case.current, performing: Self.checkoutTest(fixed: false, runs: runs))
        }
        #expect(runs.value == 2)
        try #require(failures.count == 2)
        #expect(failures[1].location.line == test.sourceLocation.line)
        #expect(
            failures[1].message == """
                .virtualTime(explore: 50): run 2 failed; run 1 passed, in first-in first-out order.
                It fails in schedule 0x1E20000000000001, which differs from first-in first-out order in 1 choice:
                  at tick 100, the action of the 2nd DispatchQueue.test ran before the action of the 1st \
                DispatchQueue.test
                Replay that schedule, run after run, with .virtualTime(schedule: 0x1E20000000000001).
                """)

        let replays = RunCount()
        let replayed = await recordingFailures {
            try? await VirtualTimeTrait.virtualTime(schedule: 0x1E20_0000_0000_0001).provideScope(
                for: test, testCase: Test.Case.current, performing: Self.checkoutTest(fixed: false, runs: replays))
        }
        #expect(replays.value == 1)
        #expect(replayed.map(\.message) == [failures[0].message])
    }

    @Test func theTraitReportsBadInputAtTheTest() async throws {
        let test = try #require(Test.current)
        let runs = RunCount()
        let failures = await recordingFailures {
            try? await VirtualTimeTrait.virtualTime(explore: 0).provideScope(
                for: test, testCase: Test.Case.current, performing: Self.checkoutTest(fixed: true, runs: runs))
        }
        #expect(runs.value == 1)
        #expect(failures.map(\.location.line) == [test.sourceLocation.line])
        #expect(
            failures.map(\.message) == [
                ".virtualTime(explore: 0) was given 0 runs; exploring needs at least 1 (the first run keeps first-in "
                    + "first-out order), so the test body ran once, in first-in first-out order."
            ])
    }

    @Test(.virtualTime(explore: 20)) func theFixedCheckoutPassesEveryScheduleUnderTheTrait() async throws {
        try await Self.checkoutTest(fixed: true, runs: RunCount())()
    }
}

/// Each run of a test under `.virtualTime(explore:)` gets a fresh instance of its suite: Swift Testing makes one per
/// call of the test function.
@Suite struct ScheduleExplorationSuiteInstanceTests {
    private static let made = Synchronized<[Int]>([])
    private let instance: Int

    init() {
        instance = Self.made.withLock { made in
            made.append(made.count + 1)
            return made.count
        }
    }

    @Test(.virtualTime(explore: 20)) func eachRunGetsASuiteInstanceOfItsOwn() {
        let first = DispatchQueue.test
        let second = DispatchQueue.test
        first.schedule(after: first.now.advanced(by: .milliseconds(10))) {}
        second.schedule(after: second.now.advanced(by: .milliseconds(10))) {}
        VirtualClock.current?.advance(by: .milliseconds(10))
        // Made for this run: no run before it saw this instance.
        #expect(Self.made.withLock { $0.last } == instance)
    }
}
