// swift-format-ignore-file
// (The samples keep the layout their guide shows: a block of the guide appears here line for line.)
// Every sample of Guides/TestDoubles.md, compiled and run as the guide shows it, and a check that the guide shows no
// other. Change one, change the other.
@testable import CadenceTesting
import Foundation
import Testing

struct ForgotPasswordViewModel {
    let resetRequestAccepted: AnyPublisher<Void, Never>

    init(
        submitTapped: AnyPublisher<Void, Never>,
        backgroundScheduler: AnySchedulerOf<DispatchQueue>,
        uiScheduler: AnySchedulerOf<DispatchQueue>,
        resetPassword: @escaping () -> AnyPublisher<Void, Never>
    ) {
        resetRequestAccepted = submitTapped
            .receive(on: backgroundScheduler)
            .flatMap { _ in resetPassword() }
            .receive(on: uiScheduler)
            .eraseToAnyPublisher()
    }
}

@Test(.virtualTime)
func aTapSendsOneRequestAndItsAcceptanceArrives() {
    let scheduler = DispatchQueue.test
    let taps = scheduler.hot("-t", values: ["t": ()])
    let request = scheduler.clock.cold("--(a|)", values: ["a": ()]).probed()
    let model = ForgotPasswordViewModel(
        submitTapped: taps.eraseToAnyPublisher(),
        backgroundScheduler: scheduler.eraseToAnyScheduler(),
        uiScheduler: scheduler.eraseToAnyScheduler(),
        resetPassword: { request.eraseToAnyPublisher() }
    )

    expect(model.resetRequestAccepted).toEmit(count: 1, within: .ticks(3))
    request.expectSubscriptions(["-^-!"])   // made on the tap's tick, completed two ticks later
}

/// Why a fetch failed.
enum FetchError: Error {
    case offline
}

/// What a fake data task delivers, written by the test.
struct ScriptedResponse {
    let data: Data
    let statusCode: Int
}

struct ScriptedDataTask: Publisher {
    typealias Output = (data: Data, statusCode: Int)
    typealias Failure = FetchError

    let response: ScriptedResponse

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Inner(downstream: subscriber, response: response))
    }

    final class Inner<S: Subscriber>: Subscription where S.Input == Output, S.Failure == Failure {
        private let lock = NSLock()
        private var downstream: S?
        private let response: ScriptedResponse

        init(downstream: S, response: ScriptedResponse) {
            self.downstream = downstream
            self.response = response
        }

        func request(_ demand: Subscribers.Demand) {
            lock.lock()
            let downstream = self.downstream
            self.downstream = nil   // one delivery, whoever asks first
            lock.unlock()
            guard let downstream else { return }
            _ = downstream.receive((data: response.data, statusCode: response.statusCode))
            downstream.receive(completion: .finished)
        }

        func cancel() {
            lock.lock()
            downstream = nil
            lock.unlock()
        }
    }
}

/// The same data task as the article wrote its `SuccessInner`, with a `cancel()` that does nothing.
struct ForgetfulDataTask: Publisher {
    typealias Output = (data: Data, statusCode: Int)
    typealias Failure = FetchError

    let response: ScriptedResponse

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Inner(downstream: subscriber, response: response))
    }

    final class Inner<S: Subscriber>: Subscription where S.Input == Output, S.Failure == Failure {
        var downstream: S?
        let response: ScriptedResponse

        init(downstream: S, response: ScriptedResponse) {
            self.downstream = downstream
            self.response = response
        }

        func request(_ demand: Subscribers.Demand) {
            _ = downstream?.receive((data: response.data, statusCode: response.statusCode))
            downstream?.receive(completion: .finished)
            downstream = nil
        }

        func cancel() {}   // keeps the subscriber, and goes on delivering to it
    }
}

/// Why a call to the API failed.
private enum APIError: Error {
    case offline
}

@Suite("Guides/TestDoubles.md")
struct TestDoublesGuideTests {
    @Test func aTypedInputNeedsNoErrorUnlessItsDiagramFails() {
        let clock = VirtualClock()
        expectNoFailures {
let input: TestPublisher<Int, APIError> = clock.hot("-a-|", values: ["a": 1])
let failing = clock.hot("-a-#", values: ["a": 1], error: APIError.offline)
            expect(input, on: clock).toMatch("-a-|", values: ["a": 1])
            #expect(failing.script.count == 2)
        }
        expectFailures([
            """
            hot("-a-#") cannot be played: "#" at character 4 fails the publisher, but no error: was given to fail it with (its Failure is APIError); pass error:. It plays nothing.
            """
        ]) {
            let cannotFail: TestPublisher<Int, APIError> = clock.hot("-a-#", values: ["a": 1])
            #expect(cannotFail.script.isEmpty)
        }
    }

    @Test func theStaleRequestIsCancelled() {
        let clock = VirtualClock()
        let queries = clock.hot("-a--b", values: ["a": "sw", "b": "swift"])
        var requests: [ProbedPublisher<TestPublisher<[String], Never>>] = []
        let results = queries.map { query in
            let request = clock.cold("---r", values: ["r": [query]]).probed(on: clock)
            requests.append(request)
            return request
        }.switchToLatest()

        expect(results, on: clock).toEmit(["swift"], within: .ticks(7)).thenIgnoreRest()
        requests[0].expectSubscriptions(["^--!"])   // the request for "sw": cancelled when "swift" came
        #expect(requests.count == 2)
    }

    @Test func differingSubscriptionsAreListed() {
        let clock = VirtualClock()
        let feed = clock.hot("-a|", values: ["a": 1])
        expect(feed, on: clock).toEmit(1, within: .ticks(1)).thenFinish(within: .ticks(1))
        expectFailures([
            """
            hot.expectSubscriptions(["^-!", "^"]) failed: received ["^-!"], counted from tick 0.

            Subscriptions:
                1. ^-!  subscribed at tick 0, requested unlimited at tick 0, completed at tick 2
            """,
        ]) {
            feed.expectSubscriptions(["^-!", "^"])
        }
    }

    @Test func aPublisherThatIgnoresDemandIsFlagged() {
        let clock = VirtualClock()
        let failures = recordingFailures {
            let flood = clock.cold("(ab)", values: ["a": 1, "b": 2]).ignoringDemand()
            expect(flood, on: clock, demand: .max(1)).toEmit([1, 2])
        }
        #expect(failures.map { String($0.message.prefix { $0 != "\n" }) } == [
            """
            toEmit([1, 2]) failed: value 2 of 2 (2) never arrived: the publisher sent 2 at tick 0 beyond the demand requested (.max(1) in all), which breaks the subscription contract (rule 1.1).
            """,
        ])
    }

    @Test func aScriptThatCannotBePlayedIsReported() {
        let clock = VirtualClock()
        expectFailures([
            """
            cold("-a-x") cannot be played: "x" at character 4 is not a key of values: (it has "a", "b"). It plays nothing.
            """,
        ]) {
            _ = clock.cold("-a-x", values: ["a": 1, "b": 2])
        }
    }

    @Test func theDataTaskKeepsTheContract() {
        expectNoFailures {
            let accepted = ScriptedResponse(data: Data(#"{"name":"Ada"}"#.utf8), statusCode: 200)
            checkPublisherContract { ScriptedDataTask(response: accepted) }
        }
    }

    @Test func aDataTaskThatIgnoresItsCancelIsReported() {
        let accepted = ScriptedResponse(data: Data(#"{"name":"Ada"}"#.utf8), statusCode: 200)
        expectFailures([
            """
            checkPublisherContract: ForgetfulDataTask broke rule 3.6 (a request after a cancel does nothing): request(.max(1)) after cancel() made it send a value, in the probe "cancel before any request".
            """,
        ]) {
            checkPublisherContract { ForgetfulDataTask(response: accepted) }
        }
    }

    @Test func aPublisherThatDeliversLaterIsCheckedOnTheClock() {
        expectNoFailures {
            let clock = VirtualClock()
            checkPublisherContract(on: clock) { clock.cold("-a-b|", values: ["a": 1, "b": 2]) }
        }
    }

    /// The guide's table of rules states each rule, by its id, as the failures do.
    @Test func theRulesTableStatesEveryRuleAsTheFailuresDo() throws {
        let guide = try String(contentsOf: repositoryFile("Guides/TestDoubles.md"), encoding: .utf8)
        let rows = guide.split(separator: "\n").map { row in
            row.split(separator: "|").prefix(2).map { $0.trimmingCharacters(in: .whitespaces) }
        }.filter { $0.first?.range(of: #"^`[0-9C]\.[0-9]+`$"#, options: .regularExpression) != nil }
        let expected = ContractRule.allCases.map { rule in
            // The guide puts the calls the rules name in code spans.
            let text = ContractText.text(of: rule).replacingOccurrences(
                of: #"([a-z]+\([a-z_:]*\))"#, with: "`$1`", options: .regularExpression
            )
            return ["`\(rule.id)`", text]
        }
        #expect(rows == expected)
    }

    @Test func theGuideShowsOnlyTheseSamples() throws {
        try expectDocumentedSamples(in: "Guides/TestDoubles.md", appearIn: [#filePath], atLeast: 12)
    }
}
