import CadenceTesting
import ExampleApp
import Foundation
import Testing

/// Search-as-you-type on virtual time: the debounce, the service's latency and the stale answers all run in
/// microseconds.
@Suite(.virtualTime)
struct SearchViewModelTests {
    let scheduler = DispatchQueue.test
    let service: FakeSearchService

    init() {
        service = FakeSearchService(scheduler: scheduler)
        service.answer("swift", with: ["Swift", "SwiftUI"], after: .milliseconds(200))
    }

    func makeSearch() -> SearchViewModel {
        SearchViewModel(service: service, scheduler: scheduler.eraseToAnyScheduler())
    }

    @Test func searchesOnlyOnceTheUserHasStoppedTypingFor300Milliseconds() {
        let search = makeSearch()
        search.query = "swift"

        expect(search.$state, on: scheduler)
            .toEmit(.idle)
            .thenEmitNothing(for: .milliseconds(299))
            .thenEmit(.searching("swift"), within: .ticks(1))
            .thenEmit(.results(["Swift", "SwiftUI"]), within: .milliseconds(200))
    }

    @Test func aBurstOfTypingSendsOneRequestForTheLastQuery() {
        let search = makeSearch()
        let states = expect(search.$state, on: scheduler).toEmit(.idle)

        for text in ["s", "sw", "swi", "swift"] { // a keystroke every 100 ms, the last at tick 300
            search.query = text
            scheduler.advance(by: .milliseconds(100))
        }

        states
            .thenEmitNothing(for: .milliseconds(199))
            .thenEmit([.searching("swift"), .results(["Swift", "SwiftUI"])], within: .milliseconds(201))
        #expect(service.requests == ["swift"])
    }

    @Test func typingTheSameQueryAgainDoesNotSearchAgain() {
        let search = makeSearch()
        search.query = "swift"
        let states = expect(search.$state, on: scheduler)
            .toEmit([.idle, .searching("swift"), .results(["Swift", "SwiftUI"])], within: .milliseconds(500))

        search.query = "swifty"
        scheduler.advance(by: .milliseconds(100))
        search.query = "swift " // a trailing space is the same query

        states.thenEmitNothing(for: .seconds(1))
        #expect(service.requests == ["swift"])
    }

    @Test func aSlowAnswerToAnOlderQueryIsDroppedWhenANewerQueryArrives() {
        service.answer("sw", with: ["Swift", "SwiftUI", "Swiss"], after: .seconds(1))
        let search = makeSearch()
        let states = expect(search.$state, on: scheduler).toEmit(.idle)

        search.query = "sw"
        states.thenEmit(.searching("sw"), within: .milliseconds(300)) // tick 300; its answer is due at 1300
        scheduler.advance(by: .milliseconds(100))
        search.query = "swift"

        states
            .thenEmit([.searching("swift"), .results(["Swift", "SwiftUI"])], within: .milliseconds(500))
            .thenEmitNothing(for: .seconds(1)) // through tick 1900: the answer for "sw" never shows
        #expect(service.requests == ["sw", "swift"])
        #expect(service.cancelled == ["sw"])
    }

    @Test func aFailedSearchShowsTheErrorAndTheNextQuerySearchesAgain() {
        service.fail("swift", with: .offline, after: .milliseconds(50))
        service.answer("swiftui", with: ["SwiftUI"], after: .milliseconds(50))
        let search = makeSearch()
        search.query = "swift"
        let states = expect(search.$state, on: scheduler)
            .toEmit([.idle, .searching("swift"), .failed(.offline)], within: .milliseconds(350))

        search.query = "swiftui"

        states.thenEmit([.searching("swiftui"), .results(["SwiftUI"])], within: .milliseconds(350))
    }

    @Test func clearingTheFieldShowsNothingWithoutARequest() {
        let search = makeSearch()
        search.query = "swift"
        let states = expect(search.$state, on: scheduler)
            .toEmit([.idle, .searching("swift"), .results(["Swift", "SwiftUI"])], within: .milliseconds(500))

        search.query = "   "

        states.thenEmitNothing(for: .milliseconds(299)).thenEmit(.idle, within: .ticks(1))
        #expect(service.requests == ["swift"])
    }
}
