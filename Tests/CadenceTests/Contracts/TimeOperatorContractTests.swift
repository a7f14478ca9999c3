import Cadence
import Foundation
import Testing

/// Every time-based operator (and a few chains of them) on a `VirtualScheduler`, played by seeded random scripts:
/// sends at random ticks (only what the operator requested), random `.max(k)` requests and returned demand, random
/// advances, re-entrant sends and cancels from inside `receive(_:)`, a finish or a failure, a cancel at a random point.
/// For every pipeline and seed: never more values than requested, nothing after the completion or the cancel, at most
/// one completion, the completion once the clock has run (when the upstream completed and nobody cancelled), the
/// upstream cancelled at most once, and once the clock has run what it owes: nothing left scheduled, the downstream
/// subscriber and the user closures released, and no misuse reported.
@Suite("Contract of every time-based operator")
struct TimeOperatorContractTests {
    typealias Pipeline =
        @Sendable (AnyPublisher<Int, TestError>, VirtualScheduler, LifetimeTracker)
        -> AnyPublisher<String, any Error>

    /// A pipeline, and whether it ever completes on its own when the upstream does.
    struct Case: Sendable {
        let name: String
        var completesWithUpstream = true
        let make: Pipeline
    }

    static let cases: [Case] = [
        Case(name: "debounce") { upstream, scheduler, _ in
            upstream.debounce(for: .ticks(5), scheduler: scheduler).erasedAsText()
        },
        Case(name: "debounceZero") { upstream, scheduler, _ in
            upstream.debounce(for: .ticks(0), scheduler: scheduler).erasedAsText()
        },
        Case(name: "throttleLatest") { upstream, scheduler, _ in
            upstream.throttle(for: .ticks(5), scheduler: scheduler, latest: true).erasedAsText()
        },
        Case(name: "throttleFirst") { upstream, scheduler, _ in
            upstream.throttle(for: .ticks(4), scheduler: scheduler, latest: false).erasedAsText()
        },
        Case(name: "delay") { upstream, scheduler, _ in
            upstream.delay(for: .ticks(3), scheduler: scheduler).erasedAsText()
        },
        Case(name: "delayZero") { upstream, scheduler, _ in
            upstream.delay(for: .ticks(0), scheduler: scheduler).erasedAsText()
        },
        Case(name: "timeoutFinishing") { upstream, scheduler, _ in
            upstream.timeout(.ticks(8), scheduler: scheduler).erasedAsText()
        },
        Case(name: "timeoutFailing") { upstream, scheduler, tracker in
            let token = tracker.token()
            return upstream.timeout(.ticks(6), scheduler: scheduler) { withExtendedLifetime(token) { .other } }
                .erasedAsText()
        },
        Case(name: "measureInterval") { upstream, scheduler, _ in
            upstream.measureInterval(using: scheduler).map(\.ticks).erasedAsText()
        },
        Case(name: "receiveOn") { upstream, scheduler, _ in upstream.receive(on: scheduler).erasedAsText() },
        Case(name: "subscribeOn") { upstream, scheduler, _ in upstream.subscribe(on: scheduler).erasedAsText() },
        Case(name: "collectByTime") { upstream, scheduler, _ in
            upstream.collect(.byTime(scheduler, .ticks(4))).erasedAsText()
        },
        Case(name: "collectByTimeOrCount") { upstream, scheduler, _ in
            upstream.collect(.byTimeOrCount(scheduler, .ticks(4), 3)).erasedAsText()
        },
        Case(name: "debounce→receiveOn→collectByTimeOrCount") { upstream, scheduler, _ in
            upstream.debounce(for: .ticks(2), scheduler: scheduler)
                .receive(on: scheduler)
                .collect(.byTimeOrCount(scheduler, .ticks(5), 2))
                .erasedAsText()
        },
        Case(name: "throttle→delay→timeout") { upstream, scheduler, tracker in
            let token = tracker.token()
            return upstream.throttle(for: .ticks(3), scheduler: scheduler, latest: true)
                .delay(for: .ticks(2), scheduler: scheduler)
                .timeout(.ticks(9), scheduler: scheduler) { withExtendedLifetime(token) { .oops } }
                .erasedAsText()
        },
        Case(name: "subscribeOn→measureInterval→delay") { upstream, scheduler, _ in
            upstream.subscribe(on: scheduler)
                .measureInterval(using: scheduler)
                .map(\.ticks)
                .delay(for: .ticks(1), scheduler: scheduler)
                .erasedAsText()
        },
        Case(name: "timeoutZero") { upstream, scheduler, _ in
            upstream.timeout(.ticks(0), scheduler: scheduler).erasedAsText()
        },
        Case(name: "delayNegative") { upstream, scheduler, _ in
            upstream.delay(for: .ticks(-2), scheduler: scheduler).erasedAsText()
        },
        Case(name: "throttleZero") { upstream, scheduler, _ in
            upstream.throttle(for: .ticks(0), scheduler: scheduler, latest: false).erasedAsText()
        },
        Case(name: "debounceNegative") { upstream, scheduler, _ in
            upstream.debounce(for: .ticks(-3), scheduler: scheduler).erasedAsText()
        },
        Case(name: "collectByTimeOrCountOne") { upstream, scheduler, _ in
            upstream.collect(.byTimeOrCount(scheduler, .ticks(3), 1)).erasedAsText()
        },
        // The same operators on an immediate scheduler: every scheduled action runs inside the call that scheduled it.
        Case(name: "debounceImmediate") { upstream, _, _ in
            upstream.debounce(for: 5, scheduler: ImmediateScheduler.shared).erasedAsText()
        },
        Case(name: "throttleImmediate") { upstream, _, _ in
            upstream.throttle(for: 5, scheduler: ImmediateScheduler.shared, latest: true).erasedAsText()
        },
        Case(name: "delayImmediate") { upstream, _, _ in
            upstream.delay(for: 3, scheduler: ImmediateScheduler.shared).erasedAsText()
        },
        Case(name: "measureIntervalImmediate") { upstream, _, _ in
            upstream.measureInterval(using: ImmediateScheduler.shared).map { _ in 0 }.erasedAsText()
        },
        Case(name: "receiveOnImmediate") { upstream, _, _ in
            upstream.receive(on: ImmediateScheduler.shared).erasedAsText()
        },
        Case(name: "subscribeOnImmediate") { upstream, _, _ in
            upstream.subscribe(on: ImmediateScheduler.shared).erasedAsText()
        },
        Case(name: "collectByTimeOrCountImmediate") { upstream, _, _ in
            upstream.collect(.byTimeOrCount(ImmediateScheduler.shared, 4, 2)).erasedAsText()
        },
        Case(name: "timerPublisher", completesWithUpstream: false) { _, scheduler, _ in
            scheduler.timerPublisher(every: .ticks(3)).autoconnect()
                .map(\.tick)
                .setFailureType(to: TestError.self)
                .erasedAsText()
        },
    ]

    /// 150 seeds a pipeline; set `CADENCE_TIME_CONTRACT_SEEDS` to play more.
    static let seedsPerCase: UInt64 =
        ProcessInfo.processInfo.environment["CADENCE_TIME_CONTRACT_SEEDS"]
        .flatMap { UInt64($0) } ?? 150

    @Test(arguments: Self.cases.map(\.name))
    func randomScriptsKeepTheContract(pipeline name: String) throws {
        let pipeline = try #require(Self.cases.first { $0.name == name })
        var failures = 0
        for seed in 0..<Self.seedsPerCase where failures < 3 {
            let outcome = Self.play(pipeline, seed: seed)
            if !outcome.problems.isEmpty {
                failures += 1
                Issue.record(
                    "\(name), seed \(seed): \(outcome.problems)\nscript: \(outcome.script)\ntimeline: \(outcome.timeline)"
                )
            }
        }
    }

    struct Outcome {
        var problems: [String] = []
        var script: [String] = []
        var timeline: [String] = []
    }

    /// Plays one random script over a fresh pipeline and reports every broken rule.
    static func play(_ pipeline: Case, seed: UInt64) -> Outcome {
        let (clock, messages) = recordingClock()
        let dice = TimeContractDice(seed: seed)
        let source = TimeContractSource()
        let tracker = LifetimeTracker()
        let log = TimeContractLog()
        var script: [String] = []
        weak var weakSubscriber: TimeContractSubscriber?

        do {
            let subscriber = TimeContractSubscriber(log: log, clock: clock)
            weakSubscriber = subscriber
            let reentrantSends = dice.chance(1, in: 3)
            subscriber.onValue = { [unowned source] subscriber in
                if reentrantSends, dice.chance(1, in: 3) { source.sendIfRequested() }
                if dice.chance(1, in: 25) { subscriber.cancel() }
                if dice.chance(1, in: 12) { subscriber.request(.max(1)) }
                return dice.chance(1, in: 3) ? .max(dice.int(1...2)) : .none
            }
            pipeline.make(source.publisher.eraseToAnyPublisher(), clock.scheduler, tracker).subscribe(subscriber)
            if dice.chance(3, in: 4) { subscriber.request(dice.chance(1, in: 6) ? .unlimited : .max(dice.int(1...4))) }

            for _ in 0..<dice.int(5...40) {
                guard !log.isCancelled, log.completions.isEmpty else { break }
                switch dice.int(0...99) {
                case 0..<40:
                    let count = dice.int(1...3)
                    script.append("\(clock.now.ticks): send ×\(count)")
                    for _ in 0..<count { source.sendIfRequested() }
                case 40..<55:
                    let demand = Subscribers.Demand.max(dice.int(1...3))
                    script.append("\(clock.now.ticks): request \(demand)")
                    subscriber.request(demand)
                case 55..<93:
                    let ticks = dice.int(0...7)
                    script.append("\(clock.now.ticks): advance \(ticks)")
                    clock.advance(by: .ticks(ticks))
                case 93..<96:
                    script.append("\(clock.now.ticks): cancel")
                    subscriber.cancel()
                default:
                    let completion: Subscribers.Completion<TestError> =
                        dice.chance(1, in: 2) ? .finished : .failure(.oops)
                    script.append("\(clock.now.ticks): complete \(completion)")
                    source.complete(completion)
                }
            }
            // The end of the script: cancel, or let everything through and complete (once `subscribe(on:)` has
            // subscribed on the scheduler).
            clock.advance(by: .ticks(0))
            if !log.isCancelled, log.completions.isEmpty {
                if !pipeline.completesWithUpstream || dice.chance(1, in: 3) {
                    script.append("\(clock.now.ticks): cancel at the end")
                    subscriber.cancel()
                } else {
                    script.append("\(clock.now.ticks): request unlimited, complete at the end")
                    subscriber.request(.unlimited)
                    source.complete(dice.chance(1, in: 2) ? .finished : .failure(.oops))
                }
            }
        }
        // What the clock owes: every timer of these pipelines is shorter than this.
        clock.advance(by: .ticks(1_000))

        var outcome = Outcome(script: script, timeline: log.timeline)
        outcome.problems += log.violations
        if !log.isCancelled, source.isCompleted || !pipeline.completesWithUpstream, log.completions.count != 1 {
            outcome.problems.append(
                "\(log.completions.count) completions once the upstream completed and the clock ran")
        }
        if source.cancelCount > 1 {
            outcome.problems.append("upstream cancelled \(source.cancelCount) times")
        }
        if log.isCancelled, log.completions.isEmpty, !source.isCompleted, pipeline.completesWithUpstream,
            source.publisher.subscriptions.count == 1, source.cancelCount != 1
        {
            outcome.problems.append("cancel did not reach the upstream")
        }
        if clock.pendingCount != 0 {
            outcome.problems.append("\(clock.pendingCount) actions still scheduled after the end")
        }
        if tracker.alive.value != 0 {
            outcome.problems.append("a user closure is still held after the end")
        }
        source.letGoOfTheSubscription()
        if weakSubscriber != nil {
            outcome.problems.append("the downstream subscriber is still held after the end, once the upstream let go")
        }
        if !messages.value.isEmpty {
            outcome.problems.append("the clock reported \(messages.value)")
        }
        return outcome
    }
}

/// The random choices of one script, shared by the script and the subscriber's `receive(_:)`.
final class TimeContractDice {
    private var generator: SeededGenerator

    init(seed: UInt64) {
        generator = SeededGenerator(seed: seed &* 0x2545_F491_4F6C_DD1D &+ 17)
    }

    func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }

    func chance(_ numerator: Int, in denominator: Int) -> Bool { int(1...denominator) <= numerator }
}

/// Regression tests for what the random scripts found.
@Suite("Time operator regressions")
struct TimeOperatorRegressionTests {
    /// `timeout(_:scheduler:customError:)` kept the user's closure for as long as the upstream kept the subscription.
    @Test(arguments: ["cancel", "timedOut", "finished"])
    func timeoutReleasesItsCustomErrorClosureOnceTheSubscriptionEnds(ending: String) {
        let clock = VirtualClock()
        let tracker = LifetimeTracker()
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        do {
            let token = tracker.token()
            upstream.timeout(.ticks(5), scheduler: clock.scheduler) { withExtendedLifetime(token) { .other } }
                .subscribe(subscriber)
        }
        #expect(tracker.alive.value == 1)
        switch ending {
        case "cancel":
            subscriber.cancel()
        case "timedOut":
            clock.advance(by: .ticks(5))
            #expect(subscriber.completions == [.failure(.other)])
        default:
            upstream.send(completion: .finished)
            clock.run()
            #expect(subscriber.completions == [.finished])
        }
        clock.run()
        #expect(tracker.alive.value == 0)
        #expect(clock.pendingCount == 0)
    }
}

/// The same pipelines with the upstream sending (serially) on one thread while the clock advances on another and the
/// downstream cancels from a third: never more values than requested, at most one completion, nothing once `cancel()`
/// has returned but the one delivery that may have been under way, and nothing left scheduled once the clock has run. Meant to run clean under
/// `swift test --sanitize=thread`.
@Suite("Time operators across threads")
struct TimeOperatorThreadContractTests {
    @Test(arguments: TimeOperatorContractTests.cases.map(\.name))
    func sendingAdvancingAndCancellingOnThreeThreads(pipeline name: String) async throws {
        let pipeline = try #require(TimeOperatorContractTests.cases.first { $0.name == name })
        for round in 0..<8 {
            let clock = VirtualClock()
            let source = TimeContractSource()
            let tracker = LifetimeTracker()
            let demand = 3 + round % 4
            let subscriber = TestSubscriber<String, any Error>(initialDemand: .max(demand))
            pipeline.make(source.publisher.eraseToAnyPublisher(), clock.scheduler, tracker).subscribe(subscriber)
            await clock.advance(by: .ticks(0)) // `subscribe(on:)` subscribes on the scheduler
            let sends = UncheckedSendable(source)
            let eventsAtCancel = LockedBox<Int?>(nil)
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for _ in 0..<40 { sends.value.sendIfRequested() }
                    if round % 2 == 0 { sends.value.complete(.finished) }
                }
                group.addTask {
                    for _ in 0..<40 { clock.advance(by: .ticks(1)) }
                }
                group.addTask {
                    for _ in 0..<Int.random(in: 0..<200) { await Task.yield() }
                    subscriber.cancel()
                    eventsAtCancel.mutate { $0 = subscriber.events.count }
                }
            }
            await clock.advance(by: .ticks(1_000))
            let context = "\(name), round \(round): \(subscriber.events)"
            #expect(subscriber.values.count <= demand, "\(context)")
            #expect(subscriber.completions.count <= 1, "\(context)")
            // A delivery already under way on another thread when `cancel()` was called may still land, but
            // nothing after it.
            let atCancel = try #require(eventsAtCancel.value)
            #expect(subscriber.events.count <= atCancel + 1, "\(context)")
            #expect(clock.pendingCount == 0, "\(context)")
            #expect(source.cancelCount <= 1, "\(context)")
        }
    }
}
