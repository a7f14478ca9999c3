// swift-format-ignore-file
// (The samples keep the layout their guide shows: a block of the guide appears here line for line.)
// Every "after" sample of Guides/MigratingFromXCTestExpectations.md, compiled and run as the guide shows it, and a
// check that the guide shows no other. Change one, change the other.
#if canImport(XCTest)
import CadenceTesting
import Foundation
import Testing
import XCTest

final class ProfileModel: ObservableObject {
    @Published var isLoading = false
    @Published var name = ""
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let delay: DispatchQueue.SchedulerTimeType.Stride

    init(scheduler: AnySchedulerOf<DispatchQueue>, delay: DispatchQueue.SchedulerTimeType.Stride = .seconds(1)) {
        self.scheduler = scheduler
        self.delay = delay
    }

    /// Loads the profile: `isLoading` while it takes `delay`, then the name.
    func load() {
        isLoading = true
        scheduler.schedule(after: scheduler.now.advanced(by: delay)) { [self] in
            name = "Blob"
            isLoading = false
        }
    }
}

enum ProfileError: Error, Equatable {
    case notFound
}

struct ProfileClient {
    let scheduler: AnySchedulerOf<DispatchQueue>
    var delay: DispatchQueue.SchedulerTimeType.Stride = .seconds(1)

    /// The name of profile `id`, after `delay`; profile 0 does not exist.
    func name(id: Int) -> AnyPublisher<String, ProfileError> {
        let answer: AnyPublisher<String, ProfileError> = id == 0
            ? Fail(error: .notFound).eraseToAnyPublisher()
            : Just("Blob").setFailureType(to: ProfileError.self).eraseToAnyPublisher()
        return answer.delay(for: delay, scheduler: scheduler).eraseToAnyPublisher()
    }
}

final class MigrationGuideTests: XCTestCase {
    // MARK: Sink, expectation, dropFirst

    func testNameShim() {
        let model = ProfileModel(scheduler: DispatchQueue.main.eraseToAnyScheduler(), delay: .milliseconds(10))
        let named = PublisherValueExpectation(model.$name, expectedValue: "Blob")
        model.load()
        wait(for: [named], timeout: 5)
    }

    func testNameOnVirtualTime() {
        let scheduler = DispatchQueue.test
        let model = ProfileModel(scheduler: scheduler.eraseToAnyScheduler())
        model.load()
        expect(model.$name, on: scheduler).toEmit(["", "Blob"], within: .seconds(1))
    }

    // MARK: @Published properties of a view model

    func testLoadingKeyPath() {
        let model = ProfileModel(scheduler: DispatchQueue.main.eraseToAnyScheduler(), delay: .milliseconds(10))
        model.load()
        let loaded = expectation(for: model, keyPath: \.isLoading, toBe: false)
        wait(for: [loaded], timeout: 5)
        XCTAssertEqual(model.name, "Blob")
    }

    func testLoadingOnVirtualTime() {
        let scheduler = DispatchQueue.test
        let model = ProfileModel(scheduler: scheduler.eraseToAnyScheduler())
        model.load()
        expect(model.$isLoading, on: scheduler).toEmit([true, false], within: .seconds(1))
    }

    // MARK: Key-path expectations

    func testNameKeyPath() {
        let model = ProfileModel(scheduler: DispatchQueue.main.eraseToAnyScheduler(), delay: .milliseconds(10))
        let named = expectation(for: model, keyPath: \.name, toBe: "Blob")
        model.load()
        wait(for: [named], timeout: 5)
    }

    // MARK: The three shims

    func testTheThreeShims() {
        let client = ProfileClient(scheduler: DispatchQueue.main.eraseToAnyScheduler(), delay: .milliseconds(10))

        let blob = PublisherValueExpectation(client.name(id: 1), expectedValue: "Blob")
        let finished = PublisherFinishedExpectation(client.name(id: 1), expectedValue: "Blob")
        let notFound = PublisherFailureExpectation(client.name(id: 0), expectedError: .notFound)

        wait(for: [blob, finished, notFound], timeout: 5)
    }

    func testTheThreeShimsAsync() async {
        let client = ProfileClient(scheduler: DispatchQueue.main.eraseToAnyScheduler(), delay: .milliseconds(10))
        let notFound = PublisherFailureExpectation(client.name(id: 0), expectedError: .notFound)
        await fulfillment(of: [notFound], timeout: 5)
    }

    func testTheThreeShimsOnVirtualTime() {
        let scheduler = DispatchQueue.test
        let client = ProfileClient(scheduler: scheduler.eraseToAnyScheduler())

        expect(client.name(id: 1), on: scheduler).toEmit("Blob", within: .seconds(1)).thenFinish()
        expect(client.name(id: 0), on: scheduler).toFail(with: ProfileError.notFound, within: .seconds(1))
    }

    // MARK: XCTNSPredicateExpectation polling

    func testPollingReplacedByAKeyPathCondition() {
        let model = ProfileModel(scheduler: DispatchQueue.main.eraseToAnyScheduler(), delay: .milliseconds(10))
        let named = KeyPathValueExpectation(object: model, keyPath: \.name) { $0.hasPrefix("B") }
        model.load()
        wait(for: [named], timeout: 5)
    }

    func testPollingReplacedOnVirtualTime() {
        let scheduler = DispatchQueue.test
        let model = ProfileModel(scheduler: scheduler.eraseToAnyScheduler())
        model.load()
        expect(model.$name, on: scheduler).toEventuallyEmit(where: { $0.hasPrefix("B") })
    }

    // MARK: Wait with a timeout → virtual time

    func testShimsOnVirtualTime() {
        let scheduler = DispatchQueue.test
        let model = ProfileModel(scheduler: scheduler.eraseToAnyScheduler())
        model.load()
        let named = PublisherValueExpectation(model.$name, expectedValue: "Blob")
        let loaded = expectation(for: model, keyPath: \.isLoading, toBe: false, clock: scheduler.clock)
        wait(for: [named, loaded], advancing: scheduler.clock, by: .seconds(1))
    }

    func testShimsOnVirtualTimeAsync() async {
        let scheduler = DispatchQueue.test
        let client = ProfileClient(scheduler: scheduler.eraseToAnyScheduler())
        let finished = PublisherFinishedExpectation(client.name(id: 1), expectedValue: "Blob")
        await fulfillment(of: [finished], advancing: scheduler.clock, by: .seconds(1))
    }

    // MARK: What the shims report

    func testWhatTheShimsReport() {
        let log = FailureLog()
        FailureReporter.$current.withValue(log.reporter) {
            let numbers = [1, 2].publisher
            let three = PublisherValueExpectation(numbers, expectedValue: 3)
            let finished = PublisherFinishedExpectation(numbers, expectedValue: 3)
            let failed = PublisherFailureExpectation(numbers)

            let subject = PassthroughSubject<Int, Never>()
            let once = PublisherValueExpectation(subject, expectedValue: 3)
            once.assertForOverFulfill = true
            subject.send(3)
            subject.send(3)

            wait(for: [three, finished, failed, once], timeout: 5)
        }
        XCTAssertEqual(log.messages.joined(separator: "\n"), """
            PublisherValueExpectation(expectedValue: 3) was fulfilled more than once: 3 arrived after the expectation had already been fulfilled (received [3, 3]). Set assertForOverFulfill to false to allow it.
            PublisherValueExpectation(expectedValue: 3) failed: the publisher finished after sending [1, 2] without a value equal to 3.
            PublisherFinishedExpectation(expectedValue: 3) failed: the publisher finished after sending [1, 2]; the last value, 2, is not equal to 3.
            PublisherFailureExpectation() failed: the publisher finished after sending [1, 2] instead of failing.
            """)
    }
}

/// Every `swift` and `text` block of the guide appears in this file line for line (indented as a whole); the
/// "before" samples, fenced as `swift before`, are exempt: they show XCTest code this guide replaces.
@Suite("Guides/MigratingFromXCTestExpectations.md")
struct MigrationGuideSamplesTests {
    @Test func theGuideShowsOnlyTheseExamples() throws {
        try expectDocumentedSamples(
            in: "Guides/MigratingFromXCTestExpectations.md", appearIn: [#filePath], atLeast: 12
        )
    }
}
#endif
