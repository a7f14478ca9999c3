import Cadence
import Testing

@Suite("Publishers.AssertNoFailure")
struct AssertNoFailureTests {
    @Test func republishesValuesAndFinishes() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, Never>()
        publisher.assertNoFailure().subscribe(subscriber)

        publisher.send(1)
        publisher.send(2)
        publisher.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func demandAndCancellationGoStraightToTheUpstream() {
        SingleUpstreamOperatorChecks.demandAndCancellationGoStraightToTheUpstream { $0.assertNoFailure() }
    }

    @Test func storesItsParameters() {
        let asserting = Just(1).assertNoFailure("loading", file: "Screen.swift", line: 12)
        #expect(asserting.prefix == "loading")
        #expect(asserting.file.description == "Screen.swift")
        #expect(asserting.line == 12)
        #expect(asserting.upstream == Just(1))
    }

    @Test func reflection() {
        let publisher = DrivenPublisher<Int, TestError>()
        publisher.assertNoFailure("PREFIX", file: "SomeFile.swift", line: 1987).subscribe(TestSubscriber<Int, Never>())
        expectSlicingReflection(
            of: publisher.subscription.downstream, description: "AssertNoFailure",
            mirrorLabels: ["file", "line", "prefix"])
        let values = Mirror(reflecting: publisher.subscription.downstream).children.map { "\($0.value)" }
        #expect(values == ["SomeFile.swift", "1987", "PREFIX"])
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func failureTrapsWithThePrefixTheErrorAndTheLocation() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let publisher = DrivenPublisher<Int, TestError>()
            publisher.assertNoFailure("loading", file: "Screen.swift", line: 12).subscribe(TestSubscriber<Int, Never>())
            publisher.send(completion: .failure(.oops))
        }
        #expect(result?.standardErrorText.contains("Screen.swift:12: Fatal error: loading: oops") == true)
    }
    #endif

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func failureWithoutAPrefixTrapsWithTheError() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let publisher = DrivenPublisher<Int, TestError>()
            publisher.assertNoFailure(file: "Screen.swift", line: 30).subscribe(TestSubscriber<Int, Never>())
            publisher.send(completion: .failure(.other))
        }
        #expect(result?.standardErrorText.contains("Screen.swift:30: Fatal error: other") == true)
    }
    #endif
}
