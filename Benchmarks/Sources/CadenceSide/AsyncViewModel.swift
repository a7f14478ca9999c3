import CadenceTesting

// Cadence's side of the "async view model" benchmark: the Loader of Guides/AsyncAwait.md (a main-actor view model
// whose task sleeps twice on an injected clock), tested on virtual time with `await clock.advance`.

/// The Loader: logs "start", sleeps 1 s, logs "one", sleeps 1 s, logs "two".
@MainActor
final class Loader {
    private(set) var log: [String] = []
    private let clock: any Clock<Duration>

    init(clock: any Clock<Duration>) {
        self.clock = clock
    }

    @discardableResult
    func start() -> Task<Void, Never> {
        Task { await self.run() }
    }

    private func run() async {
        log.append("start")
        try? await clock.sleep(for: .seconds(1))
        log.append("one")
        try? await clock.sleep(for: .seconds(1))
        log.append("two")
    }
}

/// The Loader test on Cadence's virtual time.
public enum AsyncViewModelBenchmarks {
    /// The trace every run must see: the log after `advance(by: .zero)`, after `advance(by: .seconds(1))`, after
    /// `run()`.
    static let expected = [["start"], ["start", "one"], ["start", "one", "two"]]

    /// The test, `tests` times. Returns how many runs saw the expected trace; the others are flaky runs.
    @MainActor
    public static func tests(_ tests: Int) async -> Int {
        var passed = 0
        for _ in 0..<tests where await test() { passed += 1 }
        return passed
    }

    /// One run, as the guide writes it: inside `withVirtualTime` (the test's own executor), each `await
    /// clock.advance` runs the loader's task until it sleeps again before returning.
    @MainActor
    static func test() async -> Bool {
        await trace() == expected
    }

    /// The log after each step of one run.
    @MainActor
    static func trace() async -> [[String]] {
        await withVirtualTime { clock in
            let loader = Loader(clock: clock)
            loader.start()
            var trace: [[String]] = []
            await clock.advance(by: .zero)
            trace.append(loader.log)
            await clock.advance(by: .seconds(1))
            trace.append(loader.log)
            await clock.run()
            trace.append(loader.log)
            return trace
        }
    }

    /// The Loader test explored: two Loaders started together, so that their sleeps end at the same ticks and their
    /// tasks are ready together — orders an exploration may change — under `withVirtualTime(explore: schedules)`.
    /// (One Loader alone has no such choice: its exploration is one schedule.) Returns how many runs saw each
    /// Loader's expected trace: `schedules` when that many schedules ran and every one passed.
    @MainActor
    public static func explored(_ schedules: Int) async -> Int {
        var passed = 0
        await withVirtualTime(explore: schedules) { clock in
            if await twoLoaderTraces(clock).allSatisfy({ $0 == expected }) { passed += 1 }
        }
        return passed
    }

    /// The explored test's body without exploring, `tests` times: two Loaders, each run in first-in first-out order
    /// (the limit of the `explore` row: what a schedule costs at least). Returns how many runs saw both traces.
    @MainActor
    public static func twoLoaders(_ tests: Int) async -> Int {
        var passed = 0
        for _ in 0..<tests {
            let traces = await withVirtualTime { clock in await twoLoaderTraces(clock) }
            if traces.allSatisfy({ $0 == expected }) { passed += 1 }
        }
        return passed
    }

    /// Two Loaders on `clock`, started together: each one's log after each step, as `trace()` takes one's.
    @MainActor
    static func twoLoaderTraces(_ clock: VirtualClock) async -> [[[String]]] {
        let loaders = [Loader(clock: clock), Loader(clock: clock)]
        for loader in loaders { loader.start() }
        var traces: [[[String]]] = [[], []]
        await clock.advance(by: .zero)
        for index in loaders.indices { traces[index].append(loaders[index].log) }
        await clock.advance(by: .seconds(1))
        for index in loaders.indices { traces[index].append(loaders[index].log) }
        await clock.run()
        for index in loaders.indices { traces[index].append(loaders[index].log) }
        return traces
    }

    /// The same trace by hand, `tests` times (the limit): the Loader on a clock whose `sleep` returns at once after
    /// noting the log, and its task awaited. No virtual time: it cannot say when anything happened, only in what
    /// order. Returns how many runs saw the expected trace.
    @MainActor
    public static func handWritten(_ tests: Int) async -> Int {
        var passed = 0
        for _ in 0..<tests where await handWrittenTrace() == expected { passed += 1 }
        return passed
    }

    /// The log at each sleep, then at the end.
    @MainActor
    static func handWrittenTrace() async -> [[String]] {
        let notes = SleepNotes()
        let loader = Loader(clock: ImmediateClock { notes.note() })
        notes.loader = loader
        await loader.start().value
        notes.loader = nil
        return notes.trace + [loader.log]
    }

    /// Runs the test once with a recording reporter: the benchmark must measure a passing test. Returns the first
    /// failure's message, if any.
    @MainActor
    public static func failure() async -> String? {
        var trace: [[String]] = []
        let failures = await recordingFailures { trace = await self.trace() }
        return failures.first?.message ?? (trace == expected ? nil : "the Loader's trace is \(trace), not \(expected)")
    }
}

/// What `ImmediateClock` saw: the Loader's log each time it slept.
@MainActor
final class SleepNotes {
    var loader: Loader?
    private(set) var trace: [[String]] = []

    func note() {
        trace.append(loader?.log ?? [])
    }
}

/// A clock whose `sleep` calls `onSleep` and returns at once: the cheapest hand-written stand-in for a test clock.
struct ImmediateClock: Clock {
    let onSleep: @MainActor @Sendable () -> Void

    var now: ContinuousClock.Instant { .now }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        await onSleep()
    }
}
