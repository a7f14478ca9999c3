import CadenceTesting
import Foundation
import Testing

// The README's DSL samples, compiled and run. `SearchModel` is the README's production code, as written there.

final class SearchModel: ObservableObject {
    @Published var query = ""
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let catalog = ["combine", "swift", "swiftui"]

    init(scheduler: AnySchedulerOf<DispatchQueue>) {
        self.scheduler = scheduler
    }

    /// Matches for the query, 300 ms after the user stops typing.
    var results: AnyPublisher<[String], Never> {
        let catalog = catalog
        return $query
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .filter { !$0.isEmpty }
            .map { query in catalog.filter { $0.hasPrefix(query) } }
            .eraseToAnyPublisher()
    }
}

@Suite("README (CadenceTesting)")
struct ReadmeDSLTests {
    @Test func firstExample() {
        expectNoFailures {
            let scheduler = DispatchQueue.test
            let search = SearchModel(scheduler: scheduler.eraseToAnyScheduler())
            search.query = "swift"

            expect(search.results, on: scheduler)
                .toEmitNothing(for: .ticks(299))
                .thenEmit(["swift", "swiftui"])
        }
    }

    @Test func firstExampleFailureMessage() {
        expectFailures(["""
            thenEmit(["swift"]) failed: the value differs: expected ["swift"], received ["swift", "swiftui"] at tick \
            300.

                expect(AnyPublisher<Array<String>, Never>)
              ✓   .toEmitNothing(for: .ticks(299))
              ✗   .thenEmit(["swift"])

                 tick  received              expected
                    0  subscription
              →   300  ["swift", "swiftui"]  ["swift"]  thenEmit(["swift"])

            Difference (- expected, + received):
              [
                "swift"
            +   "swiftui"
              ]
            """]) {
            let scheduler = DispatchQueue.test
            let search = SearchModel(scheduler: scheduler.eraseToAnyScheduler())
            search.query = "swift"

            expect(search.results, on: scheduler)
                .toEmitNothing(for: .ticks(299))
                .thenEmit(["swift"])
        }
    }
}
