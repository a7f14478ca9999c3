import CadenceTesting

// The scenario and its twins: view models that start tasks which sleep twice on an injected clock.

/// The scenario: a `@MainActor` view model whose task sleeps twice on the clock.
@MainActor final class Loader: ObservableObject {
    @Published private(set) var log: [String] = []
    private let clock: any Clock<Duration>
    init(clock: any Clock<Duration>) { self.clock = clock }
    func start() { Task { await self.run() } }
    private func run() async {
        log.append("start")
        try? await clock.sleep(for: .seconds(1))
        log.append("one")
        try? await clock.sleep(for: .seconds(1))
        log.append("two")
    }
}

/// A repository actor between the view model and the clock.
actor Repository {
    private let clock: any Clock<Duration>
    init(clock: any Clock<Duration>) { self.clock = clock }
    func fetch(_ name: String) async -> String {
        try? await clock.sleep(for: .seconds(1))
        return name
    }
}

/// The scenario with the sleeps inside a repository actor.
@MainActor final class RepositoryLoader: ObservableObject {
    @Published private(set) var log: [String] = []
    private let repository: Repository
    init(clock: any Clock<Duration>) { repository = Repository(clock: clock) }
    func start() { Task { await self.run() } }
    private func run() async {
        log.append("start")
        log.append(await repository.fetch("one"))
        log.append(await repository.fetch("two"))
    }
}

/// The scenario with a detached task that hops back to the main actor to log.
@MainActor final class DetachedLoader: ObservableObject {
    @Published private(set) var log: [String] = []
    private let clock: any Clock<Duration>
    init(clock: any Clock<Duration>) { self.clock = clock }
    func start() {
        Task.detached { [clock] in
            await self.append("start")
            try? await clock.sleep(for: .seconds(1))
            await self.append("one")
            try? await clock.sleep(for: .seconds(1))
            await self.append("two")
        }
    }
    private func append(_ entry: String) { log.append(entry) }
}

/// The scenario with a task group of three sleepers, logging their wake order.
@MainActor final class GroupLoader: ObservableObject {
    @Published private(set) var log: [String] = []
    private let clock: any Clock<Duration>
    init(clock: any Clock<Duration>) { self.clock = clock }
    func start() { Task { await self.run() } }
    private func run() async {
        log.append("start")
        await withTaskGroup(of: Void.self) { group in
            for (name, seconds) in [("c", 2), ("a", 1), ("b", 1)] {
                group.addTask { [clock] in
                    try? await clock.sleep(for: .seconds(seconds))
                    await self.append(name)
                }
            }
        }
        log.append("two")
    }
    private func append(_ entry: String) { log.append(entry) }
}

/// Drives one of the loaders through the scenario on `clock`, returning the log after each step; the loader sleeps on
/// `sleeper` when given (a system clock, in a session that takes such sleeps onto `clock`), else on `clock` itself.
@MainActor func driveScenario(
    _ kind: ScenarioKind,
    on clock: VirtualClock,
    sleepingOn sleeper: (any Clock<Duration>)? = nil
) async -> [[String]] {
    let log: () -> [String]
    let injected = sleeper ?? clock
    switch kind {
    case .published:
        let loader = Loader(clock: injected)
        loader.start()
        log = { loader.log }
    case .repositoryActor:
        let loader = RepositoryLoader(clock: injected)
        loader.start()
        log = { loader.log }
    case .detached:
        let loader = DetachedLoader(clock: injected)
        loader.start()
        log = { loader.log }
    case .taskGroup:
        let loader = GroupLoader(clock: injected)
        loader.start()
        log = { loader.log }
    case .observable:
        #if canImport(Observation)
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return [] }
        let loader = ObservableLoader(clock: injected)
        loader.start()
        log = { loader.log }
        #else
        return []
        #endif
    }
    var trace: [[String]] = []
    await clock.advance(by: .zero)
    trace.append(log())
    await clock.advance(by: .seconds(1))
    trace.append(log())
    await clock.run()
    trace.append(log())
    return trace
}

/// The scenario's twins.
enum ScenarioKind: String, CaseIterable, Sendable {
    case published, repositoryActor, detached, taskGroup
    /// The scenario with an `@Observable` model (the guide's `ObservableLoader`) instead of `@Published`.
    case observable

    /// Every twin this platform has: the `@Observable` one where Observation is (macOS 14, iOS 17).
    static var allCases: [ScenarioKind] {
        var kinds: [ScenarioKind] = [.published, .repositoryActor, .detached, .taskGroup]
        #if canImport(Observation)
        if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) { kinds.append(.observable) }
        #endif
        return kinds
    }

    /// The trace every run of the twin must give.
    var expectedTrace: [[String]] {
        switch self {
        case .published, .repositoryActor, .detached, .observable:
            [["start"], ["start", "one"], ["start", "one", "two"]]
        case .taskGroup:
            [["start"], ["start", "a", "b"], ["start", "a", "b", "c", "two"]]
        }
    }

    /// Whether `trace` is the one every run of the twin must give when it sleeps on a system clock. There, two equal
    /// sleeps made one after the other may wake in either order (each is measured when it reaches Cadence, and the
    /// second may be measured a tick shorter when its thread was held up on the way: see the guide), so the task
    /// group's "b" right before "a" counts as "a" then "b"; nothing else may differ.
    func isExpectedOnASystemClock(_ trace: [[String]]) -> Bool {
        let equalSleepsInOrder = trace.map { snapshot in
            var snapshot = snapshot
            if let b = snapshot.firstIndex(of: "b"), b + 1 < snapshot.endIndex, snapshot[b + 1] == "a" {
                snapshot.swapAt(b, b + 1)
            }
            return snapshot
        }
        return equalSleepsInOrder == expectedTrace
    }
}
