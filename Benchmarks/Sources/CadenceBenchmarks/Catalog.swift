import CadenceSide
import Dispatch
import Foundation
import PeerSide

/// What a benchmark's body is: synchronous (run on the main thread) or asynchronous.
enum Body: Sendable {
    case sync(@Sendable (Int) -> Int)
    case async(@Sendable (Int) async -> Int)
    /// Asynchronous and on the main actor: the main thread runs its run loop (and with it the main queue, where
    /// main-actor jobs run) until the body returns.
    case mainActor(@MainActor @Sendable (Int) async -> Int)

    /// Runs the body once at `size`; returns its checksum. An asynchronous body runs in a task of its own while the
    /// calling thread waits: `main` stays synchronous, so the main thread never parks in `dispatchMain()` (whose
    /// `sigsuspend` valgrind 3.19 cannot run, and a profile is needed).
    func run(_ size: Int) -> Int {
        switch self {
        case let .sync(body):
            return body(size)
        case let .async(body):
            let outcome = Outcome()
            Task.detached {
                outcome.checksum = await body(size)
                outcome.done.signal()
            }
            outcome.done.wait()
            return outcome.checksum
        case let .mainActor(body):
            return MainActor.assumeIsolated {
                let outcome = Outcome()
                Task { @MainActor in
                    outcome.checksum = await body(size)
                    outcome.finished = true
                }
                while !outcome.finished { _ = RunLoop.main.run(mode: .default, before: .distantFuture) }
                return outcome.checksum
            }
        }
    }

    /// An asynchronous body's checksum, handed to the waiting thread.
    private final class Outcome: @unchecked Sendable {
        // Written by the task before it signals `done` (or sets `finished`, on the main thread); read by the waiting
        // thread after `done` (or once `finished`, on the main thread).
        var checksum = 0
        var finished = false
        let done = DispatchSemaphore(value: 0)
    }
}

/// What the issue asks of a benchmark.
enum Target: Sendable {
    /// The peer takes at least this many times as long as Cadence.
    case faster(Double)
    /// Cadence takes at most this many nanoseconds per call.
    case atMost(nanoseconds: Double)
    /// No target: the ratio is recorded.
    case record
}

/// One benchmark: the same workload on Cadence and on the peer, and where one exists a hand-written loop doing the
/// same work (the limit: what any library would pay at least).
struct Benchmark: Sendable {
    /// What `--filter` matches, with `group`.
    let name: String
    let group: String
    /// The table's description of the workload.
    let title: String
    /// The workload's size unless `--scale` or `--size` change it, and what it counts.
    let defaultSize: Int
    let unit: String
    /// Times are per call (the run's time divided by its size) instead of per run.
    var perCall = false
    /// What the peer column runs.
    var peerName = "OpenCombine"
    var target: Target = .record
    /// Timed runs (after one warm-up) unless `--repetitions` says otherwise.
    var repetitions = 5
    /// Both sides' peak memory is measured, each in a process of its own.
    var measuresMemory = false
    let cadence: Body
    var peer: Body?
    /// The peer's size, when it differs from Cadence's (the real-time debounce runs 1 test, not 2,000).
    var peerSize: @Sendable (Int) -> Int = { $0 }
    var peerRepetitions: Int?
    /// Above this size the peer is not run (its time grows as n²: 16,000 actions take minutes); the table says so.
    var peerLimit: Int?
    var limit: Body?
    /// The checksum is the number of passing tests: each side's must equal its size. Otherwise the sides' checksums
    /// must be equal.
    var countsPasses = false
    /// With `countsPasses`: a run of the test whose outcome differs from the expected one is a flaky run, counted
    /// and printed for each side. Cadence's must pass every time; the peer's flakes do not fail the row.
    var countsFlakes = false
    /// `--instructions` counts each side at this size (times `--scale`, at least 2) against size 1; nil where a count
    /// would not mean what the time does (asynchronous bodies, whose threads wait; a body that runs another process).
    var instructionSize: Int? = 10_000
    /// Above this counting size the peer is not counted (valgrind runs some 50 times slower than the machine).
    var peerInstructionLimit: Int?
    /// The body runs this package's test binary (`SuiteRuns`), which `--build-tests` builds.
    var needsTestBinary = false

    /// The size after `--scale` (at least 1), unless `--size name=N` set it.
    func size(_ options: Options) -> Int {
        if let size = options.sizes[name] { return size }
        return max(1, Int((Double(defaultSize) * options.scale).rounded()))
    }

    /// The size `--instructions` counts at, if it counts this benchmark.
    func instructionSize(_ options: Options) -> Int? {
        instructionSize.map { max(2, Int((Double($0) * options.scale).rounded())) }
    }
}

extension Benchmark {
    /// Every benchmark, in the order they run.
    static let all: [Benchmark] = streams + combinators + schedulers + testing

    static let streams: [Benchmark] = [
        Benchmark(
            name: "pipeline", group: "streams", title: "PassthroughSubject → map → filter → scan → sink",
            defaultSize: 1_000_000, unit: "values", target: .faster(4), measuresMemory: true,
            cadence: .sync { CadenceStreams.pipeline(values: $0) }, peer: .sync { PeerStreams.pipeline(values: $0) },
            limit: .sync { Limits.pipeline(values: $0) }
        ),
        Benchmark(
            name: "just", group: "streams", title: "Just(i).map { … }.sink { … }, one subscription each",
            defaultSize: 100_000, unit: "subscriptions", target: .faster(4),
            cadence: .sync { CadenceStreams.justMapSink(subscriptions: $0) },
            peer: .sync { PeerStreams.justMapSink(subscriptions: $0) },
            limit: .sync { Limits.justMapSink(subscriptions: $0) }
        ),
        Benchmark(
            name: "current-value", group: "streams", title: "CurrentValueSubject, 100 subscribers × sends",
            defaultSize: 10_000, unit: "sends", target: .faster(3),
            cadence: .sync { CadenceStreams.currentValueFanOut(subscribers: 100, sends: $0) },
            peer: .sync { PeerStreams.currentValueFanOut(subscribers: 100, sends: $0) },
            limit: .sync { Limits.currentValueFanOut(subscribers: 100, sends: $0) }, instructionSize: 1_000
        ),
        Benchmark(
            name: "collect", group: "streams", title: "(0..<n).publisher.eraseToAnyPublisher().collect()",
            defaultSize: 1_000_000, unit: "values", target: .faster(10), measuresMemory: true,
            cadence: .sync { CadenceStreams.collect(values: $0) }, peer: .sync { PeerStreams.collect(values: $0) },
            limit: .sync { Limits.collect(values: $0) }
        ),
    ]

    /// The peer column of `merge`.
    static let noPeer = "none: not in OpenCombine 0.14.0"

    /// The peer column of `combineLatest`: OpenCombine 0.14.0 has none, so the peer is one written on it by hand.
    static let handWrittenCombineLatest = "OpenCombine, hand-written combineLatest"

    static let combinators: [Benchmark] = [
        Benchmark(
            name: "flatMap", group: "combinators", title: "(0..<n/100).publisher.flatMap { 100 values }",
            defaultSize: 100_000, unit: "values",
            cadence: .sync { CadenceStreams.flatMap(values: $0) }, peer: .sync { PeerStreams.flatMap(values: $0) },
            limit: .sync { Limits.flatMap(values: $0) }
        ),
        Benchmark(
            name: "flatMap-just", group: "combinators", title: "subject.flatMap { Just($0) }, per value",
            defaultSize: 100_000, unit: "values", perCall: true, target: .faster(2),
            cadence: .sync { CadenceStreams.flatMapJust(values: $0) },
            peer: .sync { PeerStreams.flatMapJust(values: $0) }, limit: .sync { Limits.tripled(values: $0) }
        ),
        Benchmark(
            name: "flatMap-future", group: "combinators", title: "subject.flatMap { Future { … } }, per value",
            defaultSize: 100_000, unit: "values", perCall: true, target: .faster(2),
            cadence: .sync { CadenceStreams.flatMapFuture(values: $0) },
            peer: .sync { PeerStreams.flatMapFuture(values: $0) }, limit: .sync { Limits.tripled(values: $0) }
        ),
        Benchmark(
            name: "merge", group: "combinators", title: "two subjects, merge(with:)",
            defaultSize: 100_000, unit: "sends", peerName: noPeer,
            cadence: .sync { CadenceStreams.merge(values: $0) }, limit: .sync { Limits.merge(values: $0) }
        ),
        Benchmark(
            name: "combineLatest", group: "combinators", title: "two subjects, combineLatest, per send",
            defaultSize: 100_000, unit: "sends", perCall: true, peerName: handWrittenCombineLatest,
            target: .faster(2),
            cadence: .sync { CadenceStreams.combineLatest(values: $0) },
            peer: .sync { PeerStreams.combineLatest(values: $0) }, limit: .sync { Limits.combineLatest(values: $0) }
        ),
        Benchmark(
            name: "zip", group: "combinators", title: "two subjects, zip, per send",
            defaultSize: 100_000, unit: "sends", perCall: true, target: .faster(2),
            cadence: .sync { CadenceStreams.zip(values: $0) }, peer: .sync { PeerStreams.zip(values: $0) },
            limit: .sync { Limits.zip(values: $0) }
        ),
        Benchmark(
            name: "share", group: "combinators", title: "subject.map { … }.share(), 10 subscribers",
            defaultSize: 100_000, unit: "sends",
            cadence: .sync { CadenceStreams.share(values: $0, subscribers: 10) },
            peer: .sync { PeerStreams.share(values: $0, subscribers: 10) },
            limit: .sync { Limits.share(values: $0, subscribers: 10) }, instructionSize: 2_000
        ),
    ]

    static let schedulers: [Benchmark] =
        [
            // The peer's cost per action grows with n (it sorts its whole queue for each action it runs): both sides are
            // counted at 300 actions, where it takes seconds under valgrind, and Cadence alone at 100,000.
            scheduler("scheduler-1k", 1_000, target: .record, repetitions: 5, instructionSize: 300),
            scheduler("scheduler-16k", 16_000, target: .faster(100), repetitions: 3, instructionSize: nil),
            scheduler(
                "scheduler-1m", 1_000_000, target: .atMost(nanoseconds: 300), repetitions: 3, instructionSize: 100_000
            ),
        ] + sleepers

    /// Every side starts its sleepers with `addImmediateTask`, new in macOS 26 and its peers: elsewhere the row is
    /// left out (a Benchmarks build for Linux always has it).
    static let sleepers: [Benchmark] = {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else { return [] }
        return [
            Benchmark(
                name: "sleepers", group: "schedulers", title: "async sleepers woken by one advance(by:)",
                defaultSize: 10_000, unit: "sleepers", peerName: "swift-clocks TestClock", repetitions: 3,
                cadence: .async { await CadenceVirtualTime.sleepers($0) },
                peer: .async { await PeerVirtualTime.sleepers($0) }, limit: .async { await Limits.sleepers($0) },
                instructionSize: nil
            )
        ]
    }()

    static func scheduler(
        _ name: String, _ size: Int, target: Target, repetitions: Int, instructionSize: Int?
    ) -> Benchmark {
        Benchmark(
            name: name, group: "schedulers", title: "DispatchQueue.test: schedule n actions, advance",
            defaultSize: size, unit: "actions", peerName: "combine-schedulers TestScheduler", target: target,
            repetitions: repetitions, measuresMemory: size >= 1_000_000,
            cadence: .sync { CadenceVirtualTime.scheduledActions($0) },
            peer: .sync { PeerVirtualTime.scheduledActions($0) }, peerLimit: 20_000,
            limit: .sync { Limits.scheduledActions($0) },
            instructionSize: instructionSize, peerInstructionLimit: 1_000
        )
    }

    static let testing: [Benchmark] = [
        Benchmark(
            name: "dsl", group: "testing", title: "expect(Just(1)).toEmit(1).thenFinish()",
            defaultSize: 20_000, unit: "calls", perCall: true, peerName: "—",
            target: .atMost(nanoseconds: 2_000), repetitions: 7,
            cadence: .sync { ExpectationBenchmarks.dsl(calls: $0) },
            limit: .sync { ExpectationBenchmarks.handWritten(calls: $0) }, countsPasses: true, instructionSize: 2_000
        ),
        Benchmark(
            name: "dsl-suite", group: "testing",
            title: "a test suite, each test expect(Just(i)).toEmit(i).thenFinish()",
            defaultSize: 10_000, unit: "tests", perCall: true, peerName: "—", repetitions: 3,
            cadence: .sync { SuiteRuns.run(suite: "TenThousandExpectations", tests: $0) },
            limit: .sync { SuiteRuns.run(suite: "TenThousandHandWrittenChecks", tests: $0) }, countsPasses: true,
            instructionSize: nil, needsTestBinary: true
        ),
        Benchmark(
            name: "debounce", group: "testing", title: "a 300 ms debounce test, on virtual time",
            defaultSize: 2_000, unit: "tests", perCall: true,
            peerName: "real DispatchQueue, \(DebounceBenchmarks.realTimeWaiting)", target: .faster(1_000),
            repetitions: 7, cadence: .sync { DebounceBenchmarks.virtualTime(tests: $0) },
            peer: .sync { DebounceBenchmarks.realTime(tests: $0) }, peerSize: { _ in 1 }, peerRepetitions: 3,
            limit: .sync { DebounceBenchmarks.handWritten(tests: $0) },
            countsPasses: true, instructionSize: 200
        ),
        Benchmark(
            name: "async-view-model", group: "testing", title: "async view model, 2 sleeps, 1,000 tests",
            defaultSize: 1_000, unit: "tests", perCall: true, peerName: "swift-clocks TestClock",
            target: .faster(100), repetitions: 5,
            cadence: .mainActor { await AsyncViewModelBenchmarks.tests($0) },
            peer: .mainActor { await PeerAsyncViewModel.tests($0) }, peerRepetitions: 3,
            limit: .mainActor { await AsyncViewModelBenchmarks.handWritten($0) },
            countsPasses: true, countsFlakes: true, instructionSize: nil
        ),
        Benchmark(
            name: "explore", group: "testing",
            title: "explore 1,000 schedules of the async view-model test, 2 Loaders",
            defaultSize: 1_000, unit: "schedules", perCall: true, peerName: "—",
            target: .atMost(nanoseconds: 100_000), repetitions: 5,
            cadence: .mainActor { await AsyncViewModelBenchmarks.explored($0) },
            limit: .mainActor { await AsyncViewModelBenchmarks.twoLoaders($0) },
            countsPasses: true, instructionSize: nil
        ),
        Benchmark(
            name: "long-step", group: "testing", title: "one toEmit(count: n) driving a 1 ms timer n ticks",
            defaultSize: 100_000, unit: "ticks", perCall: true, peerName: "—",
            target: .atMost(nanoseconds: 10_000), repetitions: 3,
            cadence: .sync { LongStepBenchmarks.oneStep(ticks: $0) },
            limit: .sync { LongStepBenchmarks.handAdvanced(ticks: $0) }, instructionSize: 2_000
        ),
    ]
}
