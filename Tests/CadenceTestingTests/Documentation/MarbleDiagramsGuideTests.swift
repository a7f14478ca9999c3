// swift-format-ignore-file
// (The samples keep the layout their guide shows: a block of the guide appears here line for line.)
// Every sample of Guides/MarbleDiagrams.md, compiled and run as the guide shows it, and a check that the guide shows
// no other. Change one, change the other.
import CadenceTesting
import Foundation
import Testing

// MARK: Production code

enum QuoteFeedError: Error, Equatable {
    case disconnected
}

/// Search as you type: the packages of `catalog` whose name contains the query, once typing pauses for `pause`.
struct PackageSearch {
    let query = PassthroughSubject<String, Never>()
    let results: AnyPublisher<[String], Never>

    init(catalog: [String], pause: DispatchQueue.SchedulerTimeType.Stride, scheduler: AnySchedulerOf<DispatchQueue>) {
        results = query
            .debounce(for: pause, scheduler: scheduler)
            .map { query in catalog.filter { $0.contains(query) } }
            .eraseToAnyPublisher()
    }
}

// MARK: Tests

@Suite("Guides/MarbleDiagrams.md")
struct MarbleDiagramsGuideTests {
    /// A price feed as a socket delivers it, replaying a recorded session on the test's clock: each price at its
    /// tick, then the end of the session.
    func quoteTicker(
        _ session: [(tick: Int, price: Int)],
        finishingAt end: Int
    ) -> PassthroughSubject<Int, QuoteFeedError> {
        let ticker = PassthroughSubject<Int, QuoteFeedError>()
        let scheduler = DispatchQueue.test
        for (tick, price) in session {
            scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(tick))) { ticker.send(price) }
        }
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(end))) {
            ticker.send(completion: .finished)
        }
        return ticker
    }

    @Test(.virtualTime)
    func aWholeTimeline() {
        let ticker = quoteTicker([(1, 1), (3, 2), (5, 3)], finishingAt: 5)

        expectNoFailures {
            expect(ticker).toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])
        }
    }

    @Test(.virtualTime)
    func resultsComeAfterTheTypingPauses() {
        let scheduler = DispatchQueue.test
        let search = PackageSearch(catalog: ["swift", "vapor"], pause: .milliseconds(300),
                                   scheduler: scheduler.eraseToAnyScheduler())
        let results = expect(search.results)
        search.query.send("sw")
        results.toMatch("300ms a", values: ["a": ["swift"]])
    }

    @Test(.virtualTime)
    func aDiagramWithoutACompletionLetsTheChainGoOn() {
        let scheduler = DispatchQueue.test
        let search = PackageSearch(catalog: ["swift", "vapor", "alamofire"], pause: .milliseconds(1),
                                   scheduler: scheduler.eraseToAnyScheduler())
        scheduler.schedule { search.query.send("swift") }
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(10))) {
            search.query.send(completion: .finished)
        }

        expectNoFailures {
            expect(search.results)
                .toMatch("-a--", values: ["a": ["swift"]])   // ["swift"] at tick 1, then nothing on ticks 2 and 3
                .thenFinish()
        }
    }

    // A test of a failed match: the ticker's last quote is left on the clock on purpose.
    @Test(.virtualTime(leftovers: .allowed))
    func aValueOneTickLate() {
        let ticker = quoteTicker([(1, 1), (4, 2), (5, 3)], finishingAt: 5)

        expectFailures([
            """
            toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3]) failed: b (2) was expected at tick 3 but arrived 1 tick late at tick 4.

                expect(PassthroughSubject<Int, QuoteFeedError>)
              ✗   .toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])

                 tick  received      expected
                    0  subscription
                    1  1             a (1)            toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])
              →     4  2             b (2) at tick 3  toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])

                expected  -a-b-(c|)
                received  -a--b
                             ^ tick 3
            """,
        ]) {
            expect(ticker).toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])
        }
    }

    @Test func theGuideShowsOnlyTestedCode() throws {
        try expectDocumentedSamples(in: "Guides/MarbleDiagrams.md", appearIn: [#filePath], atLeast: 4)
    }
}
