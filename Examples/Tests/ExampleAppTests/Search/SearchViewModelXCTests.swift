#if canImport(XCTest)
import CadenceTesting
import ExampleApp
import Foundation
import XCTest

/// The same search screen tested the XCTest way: expectations on the `@Published` state, waited for on virtual time.
final class SearchViewModelXCTests: XCTestCase {
    private var scheduler: TestSchedulerOf<DispatchQueue>!
    private var service: FakeSearchService!
    private var search: SearchViewModel!

    override func setUp() {
        super.setUp()
        scheduler = DispatchQueue.test
        service = FakeSearchService(scheduler: scheduler)
        service.answer("swift", with: ["Swift", "SwiftUI"], after: .milliseconds(200))
        search = SearchViewModel(service: service, scheduler: scheduler.eraseToAnyScheduler())
    }

    func testResultsArriveAfterTheDebounceAndTheServiceLatency() {
        let results = PublisherValueExpectation(search.$state, expectedValue: .results(["Swift", "SwiftUI"]))
        search.query = "swift"

        wait(for: [results], advancing: scheduler.clock, by: .milliseconds(500))
    }

    func testNothingIsSearchedBeforeTheUserHasStoppedTypingFor300Milliseconds() {
        let searching = PublisherValueExpectation(search.$state, expectedValue: .searching("swift"))
        searching.isInverted = true
        search.query = "swift"

        wait(for: [searching], advancing: scheduler.clock, by: .milliseconds(299))
        XCTAssertEqual(service.requests, [])
    }

    func testABurstOfTypingSendsOneRequest() {
        let results = PublisherValueExpectation(search.$state, expectedValue: .results(["Swift", "SwiftUI"]))
        for text in ["s", "sw", "swi", "swift"] {
            search.query = text
            scheduler.advance(by: .milliseconds(100))
        }

        wait(for: [results], advancing: scheduler.clock, by: .milliseconds(400))
        XCTAssertEqual(service.requests, ["swift"])
    }

    func testAStaleAnswerIsNeverShown() {
        service.answer("sw", with: ["Swift", "SwiftUI", "Swiss"], after: .seconds(1))
        let stale = PublisherValueExpectation(search.$state, expectedValue: .results(["Swift", "SwiftUI", "Swiss"]))
        stale.isInverted = true
        let fresh = PublisherValueExpectation(search.$state, expectedValue: .results(["Swift", "SwiftUI"]))

        search.query = "sw"
        scheduler.advance(by: .milliseconds(400)) // the request for "sw" is running
        search.query = "swift"

        wait(for: [fresh, stale], advancing: scheduler.clock, by: .seconds(2))
        XCTAssertEqual(service.cancelled, ["sw"])
    }

    func testAFailedSearchShowsTheError() {
        service.fail("swift", with: .server(status: 503), after: .milliseconds(80))
        let failed = PublisherValueExpectation(search.$state, expectedValue: .failed(.server(status: 503)))
        search.query = "swift"

        wait(for: [failed], advancing: scheduler.clock, by: .milliseconds(380))
    }

    func testTheStateStreamOutlivesAFailedSearch() {
        withVirtualTime { _ in
            let scheduler = DispatchQueue.test
            let service = FakeSearchService(scheduler: scheduler)
            service.fail("swift", with: .offline, after: .milliseconds(50))
            service.answer("swiftui", with: ["SwiftUI"], after: .milliseconds(50))
            let search = SearchViewModel(service: service, scheduler: scheduler.eraseToAnyScheduler())

            search.query = "swift"
            let states = expect(search.$state)
                .toEmit([.idle, .searching("swift"), .failed(.offline)], within: .milliseconds(350))
            search.query = "swiftui"
            states.thenEmit([.searching("swiftui"), .results(["SwiftUI"])], within: .milliseconds(350))
        }
    }
}
#endif
