// swift-format-ignore-file
// (The samples keep the layout their guide shows: a block of the guide appears here line for line.)
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
            thenEmit(["swift"]) failed: the value differs: expected ["swift"], received ["swift", "swiftui"] at tick 300.

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

/// Asks `Just` for nothing, which Combine's rules forbid.
private final class RequestsNothing: Subscriber, @unchecked Sendable { // used on one thread
    let combineIdentifier = CombineIdentifier()
    func receive(subscription: any Subscription) { subscription.request(.none) }
    func receive(_ input: Int) -> Subscribers.Demand { .none }
    func receive(completion: Subscribers.Completion<Never>) {}
}

@Suite("README (a broken Combine rule)")
struct ReadmeCombineRuleTests {
    /// The README's text of a broken rule reported into a test, exactly.
    @Test func aBrokenRuleIsAFailureOfTheTest() {
        let failures = recordingFailures {
            Just(7).subscribe(RequestsNothing())
        }
        #expect(failures.map(\.message) == ["""
            Just: request(_:) was called with max(0); a subscriber must request a positive demand. Apple's Combine stops the process here; inside this test Cadence reported it and ignored the call.
            """])
    }
}

@Suite("README (virtual time per test)")
struct ReadmeVirtualTimeTests {
    @Test(.virtualTime)
    func searchWaitsForTheUserToStopTyping() {
        let search = SearchModel(scheduler: DispatchQueue.test.eraseToAnyScheduler())
        search.query = "swift"

        expect(search.results).toEmitNothing(for: .ticks(299)).thenEmit(["swift", "swiftui"])
    }

    /// Every `swift` and `text` block of the README is in a test that compiles and runs it: the README's own tests
    /// here and in CadenceTests, or the Examples package's tests, which `swift test --package-path Examples` runs.
    @Test func theREADMEShowsOnlyTestedCode() throws {
        try expectDocumentedSamples(
            in: "README.md",
            appearIn: [
                #filePath,
                "Tests/CadenceTests/Documentation/ReadmeTests.swift",
                "Tests/CadenceTestingTests/Documentation/DesignSamplesTests.swift",
                "Examples/Tests/ExampleAppTests/Search/SearchViewModelTests.swift",
                "Examples/Tests/ExampleAppTests/Search/SearchViewModelXCTests.swift",
            ],
            atLeast: 10
        )
    }

    /// The README's manifest lines name this package's real products, and the Examples package depends on them the
    /// same way.
    @Test func theREADMEsManifestNamesTheRealProducts() throws {
        let readme = try String(contentsOf: repositoryFile("README.md"), encoding: .utf8)
        let manifest = try String(contentsOf: repositoryFile("Package.swift"), encoding: .utf8)
        let examples = try String(contentsOf: repositoryFile("Examples/Package.swift"), encoding: .utf8)
        let snippet = try #require(readme.components(separatedBy: "```swift manifest\n").dropFirst().first)
            .components(separatedBy: "```")[0]
        for product in ["Cadence", "CadenceTesting"] {
            #expect(manifest.contains(#".library(name: "\#(product)""#))
            #expect(snippet.contains(#".product(name: "\#(product)", package: "Cadence")"#))
            #expect(examples.contains(#".product(name: "\#(product)", package: "Cadence")"#))
        }
        // No release is tagged yet (CHANGELOG.md): the line follows `main`, and the README says what to write later.
        #expect(snippet.contains(#".package(url: "https://github.com/cadence-swift/Cadence.git", branch: "main")"#))
        #expect(readme.contains(#"write `from: "0.1.0"` instead"#))
        let changelog = try String(contentsOf: repositoryFile("CHANGELOG.md"), encoding: .utf8)
        #expect(changelog.contains("## 0.1.0 (not yet tagged)"))
    }
}

#if canImport(XCTest)
import XCTest

final class SearchModelTests: XCTestCase {
    func testSearchWaitsForTheUserToStopTyping() {
        withVirtualTime { clock in
            let search = SearchModel(scheduler: DispatchQueue.test.eraseToAnyScheduler())
            search.query = "swift"

            expect(search.results).toEmitNothing(for: .ticks(299)).thenEmit(["swift", "swiftui"])
        }
    }
}

/// The README's shim sample, as it shows it.
final class SearchModelShimTests: XCTestCase {
    func testResultsArriveAfterTheDebounce() {
        let scheduler = DispatchQueue.test
        let search = SearchModel(scheduler: scheduler.eraseToAnyScheduler())
        let results = PublisherValueExpectation(search.results, expectedValue: ["swift", "swiftui"])
        search.query = "swift"

        wait(for: [results], advancing: scheduler.clock, by: .milliseconds(300))
    }
}
#endif
