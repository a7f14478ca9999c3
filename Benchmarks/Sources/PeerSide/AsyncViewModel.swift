import Clocks

// swift-clocks' side of the "async view model" benchmark: the Loader of Guides/AsyncAwait.md (a main-actor view model
// whose task sleeps twice on an injected clock), tested with `TestClock` the way swift-clocks documents it.

/// The Loader: logs "start", sleeps 1 s, logs "one", sleeps 1 s, logs "two".
@MainActor
final class PeerLoader {
    private(set) var log: [String] = []
    private let clock: any Clock<Duration>

    init(clock: any Clock<Duration>) {
        self.clock = clock
    }

    func start() {
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

/// The Loader test on swift-clocks' `TestClock`.
public enum PeerAsyncViewModel {
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

    /// One run, as swift-clocks documents it: advance with `await clock.advance(by:)`, which lets the woken tasks run
    /// by yielding (`megaYield`) before it returns, then read the state.
    @MainActor
    static func test() async -> Bool {
        let clock = TestClock()
        let loader = PeerLoader(clock: clock)
        loader.start()
        var trace: [[String]] = []
        await clock.advance(by: .zero)
        trace.append(loader.log)
        await clock.advance(by: .seconds(1))
        trace.append(loader.log)
        await clock.run()
        trace.append(loader.log)
        return trace == expected
    }
}
