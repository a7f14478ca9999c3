// swift-format-ignore-file
// (The samples keep the layout their guide shows: a block of the guide appears here line for line.)
// Every sample of Guides/XCTest.md, compiled and run as the guide shows it, and a check that the guide shows no
// other. Change one, change the other.
#if canImport(XCTest)
import CadenceTesting
import Foundation
import Testing
import XCTest

enum InboxError: Error, Equatable {
    case offline
}

/// The inbox's server API, as the app injects it.
struct InboxClient {
    var unreadCount: () -> AnyPublisher<Int, InboxError>

    /// A client that answers `count` after `latency`, on `scheduler`.
    static func answering(
        _ count: Int,
        after latency: DispatchQueue.SchedulerTimeType.Stride,
        scheduler: AnySchedulerOf<DispatchQueue>
    ) -> InboxClient {
        InboxClient {
            Just(count)
                .setFailureType(to: InboxError.self)
                .delay(for: latency, scheduler: scheduler)
                .eraseToAnyPublisher()
        }
    }

    /// A client that fails with `.offline` after `latency`, on `scheduler`.
    static func offline(
        after latency: DispatchQueue.SchedulerTimeType.Stride,
        scheduler: AnySchedulerOf<DispatchQueue>
    ) -> InboxClient {
        InboxClient {
            Fail(error: InboxError.offline)
                .delay(for: latency, scheduler: scheduler)
                .eraseToAnyPublisher()
        }
    }
}

/// The unread badge on the inbox tab.
final class UnreadBadgeModel: ObservableObject {
    @Published private(set) var count: Int?
    @Published private(set) var isLoading = false
    private let client: InboxClient
    private let mainQueue: AnySchedulerOf<DispatchQueue>
    private var request: AnyCancellable?

    init(client: InboxClient, mainQueue: AnySchedulerOf<DispatchQueue>) {
        self.client = client
        self.mainQueue = mainQueue
    }

    func refresh() {
        isLoading = true
        request = client.unreadCount()
            .receive(on: mainQueue)
            .sink { [weak self] _ in
                self?.isLoading = false
            } receiveValue: { [weak self] count in
                self?.count = count
            }
    }
}

final class XCTestGuideTests: XCTestCase {
    // MARK: expect in XCTest

    func testTheBadgeShowsTheServerCount() {
        let scheduler = DispatchQueue.test
        let model = UnreadBadgeModel(
            client: .answering(3, after: .milliseconds(400), scheduler: scheduler.eraseToAnyScheduler()),
            mainQueue: scheduler.eraseToAnyScheduler()
        )

        model.refresh()

        expect(model.$count, on: scheduler).toEmit([nil, 3], within: .milliseconds(400))
        XCTAssertFalse(model.isLoading)
    }

    func testWhatAFailingExpectationReports() {
        let scheduler = DispatchQueue.test
        let model = UnreadBadgeModel(
            client: .answering(3, after: .milliseconds(400), scheduler: scheduler.eraseToAnyScheduler()),
            mainQueue: scheduler.eraseToAnyScheduler()
        )
        model.refresh()
        let line = #line + 2
        let failures = recordingFailures {
            expect(model.$count, on: scheduler).toEmit([nil, 4], within: .milliseconds(400))
        }
        XCTAssertEqual(failures.map(\.message), [
            """
            toEmit([nil, 4], within: .milliseconds(400)) failed: value 2 of 2 differs: expected 4, received 3 at tick 400.

                expect(Published<Optional<Int>>.Publisher)
              ✗   .toEmit([nil, 4], within: .milliseconds(400))

                 tick  received      expected
                    0  subscription
                    0  nil           nil       toEmit([nil, 4], within: .milliseconds(400))
              →   400  3             4         toEmit([nil, 4], within: .milliseconds(400))
            """,
        ])
        XCTAssertEqual(failures.map(\.location.line), [line])
    }

    // MARK: withVirtualTime

    func testTheBadgeLoadsOnVirtualTime() {
        withVirtualTime { clock in
            let mainQueue = DispatchQueue.test.eraseToAnyScheduler()
            let model = UnreadBadgeModel(
                client: .answering(3, after: .milliseconds(400), scheduler: mainQueue),
                mainQueue: mainQueue
            )

            model.refresh()

            expect(model.$count).toEmit([nil, 3], within: .milliseconds(400))
            XCTAssertEqual(clock.now.ticks, 400)
        }
    }

    func testTheBadgeCountReadAsync() async {
        await withVirtualTime { clock in
            let mainQueue = DispatchQueue.test.eraseToAnyScheduler()
            let model = UnreadBadgeModel(
                client: .answering(3, after: .milliseconds(400), scheduler: mainQueue),
                mainQueue: mainQueue
            )

            model.refresh()
            await clock.advance(by: .milliseconds(400))

            var counts = model.$count.values.makeAsyncIterator()
            let count = await counts.next()
            XCTAssertEqual(count, 3)
        }
    }

    // MARK: The shims on virtual time

    func testTheBadgeWithTheShims() {
        let scheduler = DispatchQueue.test
        let client = InboxClient.answering(3, after: .milliseconds(400), scheduler: scheduler.eraseToAnyScheduler())
        let model = UnreadBadgeModel(client: client, mainQueue: scheduler.eraseToAnyScheduler())

        let three = PublisherValueExpectation(model.$count, expectedValue: 3)
        model.refresh()
        let loaded = expectation(for: model, keyPath: \.isLoading, toBe: false, clock: scheduler.clock)

        wait(for: [three, loaded], advancing: scheduler.clock, by: .milliseconds(400))
    }

    func testTheClientWithTheShims() {
        let scheduler = DispatchQueue.test
        let answering = InboxClient.answering(3, after: .seconds(1), scheduler: scheduler.eraseToAnyScheduler())
        let offline = InboxClient.offline(after: .seconds(1), scheduler: scheduler.eraseToAnyScheduler())

        let finished = PublisherFinishedExpectation(answering.unreadCount(), expectedValue: 3)
        let failed = PublisherFailureExpectation(offline.unreadCount(), expectedError: .offline)

        wait(for: [finished, failed], advancing: scheduler.clock, by: .seconds(1))
    }

    func testTheClientWithTheShimsAsync() async {
        let scheduler = DispatchQueue.test
        let offline = InboxClient.offline(after: .seconds(1), scheduler: scheduler.eraseToAnyScheduler())
        let failed = PublisherFailureExpectation(offline.unreadCount(), expectedError: .offline)

        await fulfillment(of: [failed], advancing: scheduler.clock, by: .seconds(1))
    }

    func testWhatTheClockDidNotBringAboutFailsAtTheWaitsLine() {
        let log = FailureLog()
        var line = 0
        FailureReporter.$current.withValue(log.reporter) {
            let scheduler = DispatchQueue.test
            let client = InboxClient.answering(3, after: .seconds(1), scheduler: scheduler.eraseToAnyScheduler())
            let model = UnreadBadgeModel(client: client, mainQueue: scheduler.eraseToAnyScheduler())

            let three = PublisherValueExpectation(model.$count, expectedValue: 3)
            model.refresh()

            wait(for: [three], advancing: scheduler.clock, by: .milliseconds(500))
            // The wait ran the clock on to the answer, to say when it came: the clock is at tick 1000 now.
            line = #line - 2
            XCTAssertEqual(scheduler.clock.now.ticks, 1000)
        }
        XCTAssertEqual(log.messages, [
            """
            wait(for:advancing:) failed: at tick 500, 1 expectation was not fulfilled: "PublisherValueExpectation(expectedValue: 3) (received [nil] so far)"; it arrived at tick 1000, 500 ticks late.
            """,
        ])
        XCTAssertEqual(log.failures.map(\.location.line), [line])
    }

    // MARK: Over-fulfilment

    func testOverFulfilmentIsAFailure() {
        let log = FailureLog()
        FailureReporter.$current.withValue(log.reporter) {
            let scheduler = DispatchQueue.test
            let client = InboxClient.answering(3, after: .seconds(1), scheduler: scheduler.eraseToAnyScheduler())
            let model = UnreadBadgeModel(client: client, mainQueue: scheduler.eraseToAnyScheduler())

            model.refresh()
            let loaded = expectation(for: model, keyPath: \.isLoading, toBe: false, clock: scheduler.clock)
            scheduler.advance(by: .seconds(1))
            model.refresh()

            wait(for: [loaded], advancing: scheduler.clock, by: .seconds(1))
        }
        XCTAssertEqual(log.messages, [
            """
            KeyPathValueExpectation(KeyPath<UnreadBadgeModel, Bool>, expectedValue: false) was fulfilled more than once: the value became false again after the expectation had already been fulfilled (values read: [true, false, true, false]). Set assertForOverFulfill to false to allow it.
            """,
        ])
    }
}

/// Every `swift` and `text` block of the guide appears in this file line for line (indented as a whole).
@Suite("Guides/XCTest.md")
struct XCTestGuideSamplesTests {
    @Test func theGuideShowsOnlyTheseExamples() throws {
        try expectDocumentedSamples(in: "Guides/XCTest.md", appearIn: [#filePath], atLeast: 10)
    }
}
#endif
