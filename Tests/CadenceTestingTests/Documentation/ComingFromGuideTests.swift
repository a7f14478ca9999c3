// swift-format-ignore-file
// (The samples keep the layout their guide shows: a block of the guide appears here line for line.)
// Every "after" sample of Guides/ComingFrom.md, compiled and run as the guide shows it, and a check that the guide
// shows no other. Change one, change the other.
#if canImport(XCTest)
import CadenceTesting
import Foundation
import Testing
import XCTest

/// Suggests cities as the user types, 300 ms after the last keystroke.
final class CitySearch: ObservableObject {
    @Published var query = ""
    @Published private(set) var suggestions: [String] = []
    private static let cities = ["Bergen", "Berlin", "Bern", "Boston"]

    init(scheduler: AnySchedulerOf<DispatchQueue>) {
        $query
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .removeDuplicates()
            .map { query in query.isEmpty ? [] : Self.cities.filter { $0.hasPrefix(query) } }
            .assign(to: &$suggestions)
    }
}

/// A combine-schedulers test, unchanged: it compiles and passes with `import CadenceTesting` instead.
final class CitySearchTests: XCTestCase {
    func testSuggestionsWaitForTheUserToStopTyping() {
        let scheduler = DispatchQueue.test
        let search = CitySearch(scheduler: scheduler.eraseToAnyScheduler())

        search.query = "Ber"
        scheduler.advance(by: .milliseconds(299))
        XCTAssertEqual(search.suggestions, [])
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(search.suggestions, ["Bergen", "Berlin", "Bern"])
    }
}

@Suite("Guides/ComingFrom.md")
struct ComingFromGuideTests {
    // MARK: combine-schedulers

    @Test(.virtualTime)
    func suggestionsWaitForTheUserToStopTyping() {
        let search = CitySearch(scheduler: DispatchQueue.test.eraseToAnyScheduler())
        search.query = "Ber"

        expect(search.$suggestions)
            .toEmit([])
            .thenEmitNothing(for: .ticks(299))
            .thenEmit(["Bergen", "Berlin", "Bern"])
    }

    @Test func anUnimplementedScheduler() {
        expectFailures([
            """
            DispatchQueue.unimplemented("search") was asked to schedule(after:interval:tolerance:options:_:) an action due in 300 ticks, repeating every 300 ticks; an unimplemented scheduler runs nothing, so the action was not run.
            """,
            """
            DispatchQueue.unimplemented("search") was asked to schedule(after:interval:tolerance:options:_:) an action due in 300 ticks, repeating every 300 ticks; an unimplemented scheduler runs nothing, so the action was not run.
            """,
        ]) {
            let search = CitySearch(scheduler: .unimplemented("search"))
            search.query = "Ber"
        }
    }

    // MARK: CombineExpectations

    @Test(.virtualTime)
    func theFirstTwoSuggestionLists() {
        let search = CitySearch(scheduler: DispatchQueue.test.eraseToAnyScheduler())
        search.query = "Ber"

        expect(search.$suggestions).toEmit([[], ["Bergen", "Berlin", "Bern"]], within: .milliseconds(300))
    }

    @Test(.virtualTime)
    func everythingWithinASecond() {
        let scheduler = DispatchQueue.test
        let search = CitySearch(scheduler: scheduler.eraseToAnyScheduler())
        let suggestions = expect(search.$suggestions)

        search.query = "Ber"
        scheduler.advance(by: .seconds(1))

        #expect(suggestions.values == [[], ["Bergen", "Berlin", "Bern"]])
        suggestions.thenIgnoreRest()
    }

    // MARK: Entwine and RxTest

    @Test(.virtualTime)
    func pricesAboveTheLimitRaiseAnAlert() {
        let scheduler = DispatchQueue.test
        let prices = PassthroughSubject<Int, Never>()
        for (tick, price) in [(100, 101), (200, 99), (300, 105)] {
            scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(tick))) { prices.send(price) }
        }

        let alerts = expect(prices.map { $0 > 100 })
            .toEmit(true, within: .ticks(100))
            .thenEmit(false, within: .ticks(100))
            .thenEmit(true, within: .ticks(100))

        #expect(alerts.events == [
            TimedEvent(.subscription, at: .tick(0)),
            TimedEvent(.value(true), at: .tick(100)),
            TimedEvent(.value(false), at: .tick(200)),
            TimedEvent(.value(true), at: .tick(300)),
        ])
    }

    @Test(.virtualTime)
    func alertsFromAHotFeed() {
        let scheduler = DispatchQueue.test
        let prices = PassthroughSubject<Int, Never>()
        scheduler.schedule(after: .init(virtualTick: 150)) { prices.send(120) }
        scheduler.schedule(after: .init(virtualTick: 210)) { prices.send(101) }
        scheduler.schedule(after: .init(virtualTick: 220)) { prices.send(99) }
        scheduler.schedule(after: .init(virtualTick: 300)) { prices.send(completion: .finished) }

        scheduler.advance(by: .milliseconds(200))
        expect(prices.map { $0 > 100 })
            .toEmit(true, within: .ticks(10))
            .thenEmit(false, within: .ticks(10))
            .thenFinish(within: .ticks(80))
    }

    @Test(.virtualTime)
    func pricesAsAMarbleDiagram() {
        let scheduler = DispatchQueue.test
        let prices = PassthroughSubject<Int, Never>()
        for (tick, price) in [(1, 101), (3, 99), (5, 105)] {
            scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(tick))) { prices.send(price) }
        }

        expect(prices.map { $0 > 100 }).toMatch("-a-b-a", values: ["a": true, "b": false])
    }
}

/// Every `swift` and `text` block of the guide appears in this file line for line (indented as a whole); the
/// "before" samples, fenced as `swift before`, are exempt: they show the other libraries' code.
@Suite("Guides/ComingFrom.md samples")
struct ComingFromGuideSamplesTests {
    @Test func theGuideShowsOnlyTheseExamples() throws {
        try expectDocumentedSamples(
            in: "Guides/ComingFrom.md",
            appearIn: [#filePath, "Benchmarks/Tests/CoexistenceTests/CoexistenceTests.swift"],
            atLeast: 12
        )
    }
}
#endif
