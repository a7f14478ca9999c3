import Cadence
import Dispatch
import Foundation
import Testing

/// Production-style code as users write it: the model takes the scheduler it runs on as
/// `AnySchedulerOf<DispatchQueue>`, so the app passes `DispatchQueue.main` and the test passes `DispatchQueue.test`.
private final class SearchModel {
    @Published var query = ""
    private(set) var results: [String] = []
    private(set) var searches: [String] = []
    private var cancellables: Set<AnyCancellable> = []

    init(scheduler: AnySchedulerOf<DispatchQueue>, catalogue: [String]) {
        $query
            .dropFirst()
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .removeDuplicates()
            .handleEvents(receiveOutput: { [unowned self] in searches.append($0) })
            .map { query in catalogue.filter { $0.hasPrefix(query) } }
            .receive(on: scheduler)
            .sink { [unowned self] in results = $0 }
            .store(in: &cancellables)
    }
}

@Suite("Production code driven by test schedulers")
struct ProductionStyleSchedulingTests {
    @Test func aModelTakingAnySchedulerOfDispatchQueueRunsOnVirtualTime() {
        let scheduler = DispatchQueue.test
        let model = SearchModel(scheduler: scheduler.eraseToAnyScheduler(), catalogue: ["swift", "swiftui", "rust"])

        model.query = "s"
        scheduler.advance(by: .milliseconds(100))
        model.query = "sw"
        scheduler.advance(by: .milliseconds(100))
        model.query = "swift"
        scheduler.advance(by: .milliseconds(299))
        #expect(model.searches == [])
        #expect(model.results == [])

        scheduler.advance(by: .milliseconds(1))
        #expect(model.searches == ["swift"])
        #expect(model.results == ["swift", "swiftui"])
        #expect(scheduler.clock.now.ticks == 500)

        model.query = "swift"
        scheduler.advance(by: .seconds(1))
        #expect(model.searches == ["swift"], "the same query again is not searched again")
        #expect(scheduler.clock.pendingCount == 0)
    }

    @Test func testSchedulersBoundToOneClockShareItsTimeline() {
        let clock = VirtualClock()
        let log = LockedBox<[String]>([])
        VirtualClock.$current.withValue(clock) {
            let main = DispatchQueue.test
            let runLoop = RunLoop.test
            let ticks = VirtualScheduler()
            main.schedule(after: main.now.advanced(by: .milliseconds(20))) { log.append("main@\(clock.now.ticks)") }
            runLoop.schedule(after: runLoop.now.advanced(by: .milliseconds(10))) {
                log.append("runLoop@\(clock.now.ticks)")
            }
            ticks.schedule(after: ticks.now.advanced(by: .ticks(15))) { log.append("ticks@\(clock.now.ticks)") }
            #expect(main.clock === clock && runLoop.clock === clock && ticks.clock === clock)

            runLoop.advance(by: .milliseconds(15))
            #expect(log.value == ["runLoop@10", "ticks@15"])
            main.advance(by: .milliseconds(5))
            #expect(log.value == ["runLoop@10", "ticks@15", "main@20"])
            #expect(ticks.now == VirtualTime(tick: 20))
        }
    }

    @Test func withNoClockBoundEachTestSchedulerHasItsOwn() {
        let first = DispatchQueue.test
        let second = DispatchQueue.test
        #expect(first.clock !== second.clock)
        first.advance(by: .seconds(1))
        #expect(first.clock.now.ticks == 1000)
        #expect(second.clock.now.ticks == 0)
    }
}

@Suite("Zero waits on test schedulers with finer time types")
struct ZeroWaitsOnTestSchedulersTests {
    @Test func zeroDebounceAndTimeoutOnDispatchQueueTestReportNoMisuse() {
        let (clock, messages) = recordingClock()
        let scheduler = TestSchedulerOf<DispatchQueue>(clock: clock)
        let subject = PassthroughSubject<Int, Never>()
        var debounced: [Int] = []
        var timedOut = false
        let first = subject.debounce(for: .zero, scheduler: scheduler).sink { debounced.append($0) }
        let second = subject.timeout(.zero, scheduler: scheduler).sink(
            receiveCompletion: { _ in timedOut = true }, receiveValue: { _ in }
        )
        subject.send(1)
        scheduler.advance()
        #expect(debounced == [1])
        #expect(timedOut)
        #expect(messages.value == [], "a zero wait is what the user wrote; the operators' own timers are not misuse")
        withExtendedLifetime((first, second)) {}
    }
}
