import CadenceTesting
import ExampleApp
import Foundation
import Testing

/// What a developer reads when the search's timing regresses: the exact failure text of the test that guards it.
@Suite(.virtualTime)
struct SearchFailureMessageTests {
    // A test of a failed step: the search it catches early is left on the clock on purpose.
    @Test(.virtualTime(leftovers: .allowed))
    func aDebounceCutTo100MillisecondsFailsAtTheQuietWindowWithTheTimeline() {
        let scheduler = DispatchQueue.test
        let service = FakeSearchService(scheduler: scheduler)
        service.answer("swift", with: ["Swift", "SwiftUI"], after: .milliseconds(200))
        let search = SearchViewModel(
            service: service, scheduler: scheduler.eraseToAnyScheduler(), debounce: .milliseconds(100)
        )
        search.query = "swift"

        let failures = recordingFailures {
            expect(search.$state, on: scheduler)
                .toEmit(.idle)
                .thenEmitNothing(for: .milliseconds(299))
                .thenEmit(.searching("swift"), within: .ticks(1))
        }

        #expect(
            failures.map(\.message) == [
                """
                thenEmitNothing(for: .ticks(299)) failed: expected nothing through tick 299, received SearchState.searching("swift") at tick 100, 200 ticks early.

                    expect(Published<SearchState>.Publisher)
                  ✓   .toEmit(SearchState.idle)
                  ✗   .thenEmitNothing(for: .ticks(299))
                      .thenEmit(SearchState.searching("swift"), within: .ticks(1))  (not checked)

                     tick  received                        expected
                        0  subscription
                        0  SearchState.idle                SearchState.idle          toEmit(SearchState.idle)
                  →   100  SearchState.searching("swift")  nothing through tick 299  thenEmitNothing(for: .ticks(299))
                """
            ])
    }
}
