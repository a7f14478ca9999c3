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

@Suite("README (virtual time per test)")
struct ReadmeVirtualTimeTests {
    @Test(.virtualTime)
    func searchWaitsForTheUserToStopTyping() {
        let search = SearchModel(scheduler: DispatchQueue.test.eraseToAnyScheduler())
        search.query = "swift"

        expect(search.results).toEmitNothing(for: .ticks(299)).thenEmit(["swift", "swiftui"])
    }

    @Test func theREADMEsDSLSamplesAreTheTestedOnes() throws {
        // Every line of the README's CadenceTesting samples is in a test of this folder, so the README cannot drift.
        let documentation = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let root = documentation.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let tested = try FileManager.default.contentsOfDirectory(atPath: documentation.path)
            .filter { $0.hasSuffix(".swift") }
            .map { try String(contentsOf: documentation.appendingPathComponent($0), encoding: .utf8) }
            .joined(separator: "\n")
        let testedLines = Set(tested.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let blocks = readme.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        let dslBlocks = blocks.filter { $0.contains("expect(") || $0.contains("Expectation(") }
        #expect(dslBlocks.count >= 4)
        for block in dslBlocks {
            for line in block.split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty || trimmed.hasPrefix("//") { continue }
                #expect(testedLines.contains(trimmed), "README line not in a test: \(trimmed)")
            }
        }
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

    func testResultsArriveAfterTheDebounce() {
        let scheduler = DispatchQueue.test
        let search = SearchModel(scheduler: scheduler.eraseToAnyScheduler())
        let results = PublisherValueExpectation(search.results, expectedValue: ["swift", "swiftui"])
        search.query = "swift"

        wait(for: [results], advancing: scheduler.clock, by: .milliseconds(300))
    }
}
#endif
