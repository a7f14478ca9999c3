#if canImport(XCTest)
import CadenceTesting
import Foundation
import XCTest

final class PublisherFailureExpectationTests: XCTestCase {
    func testAFailureFromAnotherThreadFulfilsIt() {
        let log = FailureLog()
        let subject = PassthroughSubject<Int, TestError>()
        let failed = reporting(to: log) { PublisherFailureExpectation(subject) }
        let offline = reporting(to: log) { PublisherFailureExpectation(subject, expectedError: .offline) }
        let anyError = reporting(to: log) { PublisherFailureExpectation(subject) { $0 != .timeout } }
        sendLater([1], then: .failure(.offline), to: subject)
        wait(for: [failed, offline, anyError], timeout: 10)
        XCTAssertEqual(log.messages, [])
    }

    func testItWorksWithAwaitFulfillment() async {
        let log = FailureLog()
        let subject = PassthroughSubject<Int, TestError>()
        let offline = reporting(to: log) { PublisherFailureExpectation(subject, expectedError: .offline) }
        sendLater([], then: .failure(.offline), to: subject)
        await fulfillment(of: [offline], timeout: 10)
        XCTAssertEqual(log.messages, [])
    }

    func testFinishingFailsFast() {
        let log = FailureLog()
        let subject = PassthroughSubject<Int, TestError>()
        let failed = reporting(to: log) { PublisherFailureExpectation(subject) }
        sendLater([1, 2], then: .finished, to: subject)
        XCTAssertEqual(waitResult(for: failed, timeout: 60), .completed)
        XCTAssertEqual(
            log.messages,
            [
                "PublisherFailureExpectation() failed: the publisher finished after sending [1, 2] instead of failing."
            ])
    }

    func testFinishingFailsFastWithAwaitFulfillment() async {
        let log = FailureLog()
        let subject = PassthroughSubject<Int, TestError>()
        let failed = reporting(to: log) { PublisherFailureExpectation(subject) }
        sendLater([1, 2], then: .finished, to: subject)
        // A wait that ran out its timeout would fail this test.
        await fulfillment(of: [failed], timeout: 60)
        XCTAssertEqual(
            log.messages,
            [
                "PublisherFailureExpectation() failed: the publisher finished after sending [1, 2] instead of failing."
            ])
    }

    func testAnotherErrorFailsFastWithAwaitFulfillment() async {
        let log = FailureLog()
        let subject = PassthroughSubject<Int, TestError>()
        let offline = reporting(to: log) { PublisherFailureExpectation(subject, expectedError: .offline) }
        sendLater([], then: .failure(.timeout), to: subject)
        await fulfillment(of: [offline], timeout: 60)
        XCTAssertEqual(
            log.messages,
            [
                "PublisherFailureExpectation(expectedError: TestError.offline) failed: the publisher failed with "
                    + "TestError.timeout without sending a value; the error is not equal to TestError.offline."
            ])
    }

    func testAnotherErrorFailsFast() {
        let log = FailureLog()
        let subject = PassthroughSubject<Int, TestError>()
        let offline = reporting(to: log) { PublisherFailureExpectation(subject, expectedError: .offline) }
        let condition = reporting(to: log) { PublisherFailureExpectation(subject) { $0 == .offline } }
        sendLater([], then: .failure(.timeout), to: subject)
        XCTAssertEqual(XCTWaiter().wait(for: [offline, condition], timeout: 60), .completed)
        XCTAssertEqual(
            log.messages,
            [
                "PublisherFailureExpectation(expectedError: TestError.offline) failed: the publisher failed with "
                    + "TestError.timeout without sending a value; the error is not equal to TestError.offline.",
                "PublisherFailureExpectation(condition:) failed: the publisher failed with TestError.timeout without "
                    + "sending a value; the error does not satisfy the condition.",
            ])
    }

    func testAnAlreadyFailedPublisherResolvesAtOnce() {
        let log = FailureLog()
        let failed = reporting(to: log) {
            PublisherFailureExpectation(Fail<Int, TestError>(error: .offline), expectedError: .offline)
        }
        wait(for: [failed], timeout: 0)
        XCTAssertEqual(log.messages, [])
    }

    func testAnAlreadyFinishedPublisherIsRuledOutAtOnce() {
        let log = FailureLog()
        let failed = reporting(to: log) { PublisherFailureExpectation(Empty<Int, TestError>()) }
        XCTAssertEqual(waitResult(for: failed, timeout: 60), .completed)
        XCTAssertEqual(
            log.messages,
            [
                "PublisherFailureExpectation() failed: the publisher finished without sending a value instead of "
                    + "failing."
            ])
    }

    func testASecondCompletionIsAnOverFulfilment() {
        let log = FailureLog()
        let broken = ScriptedPublisher<Int, TestError>([
            (nil, .subscription), (nil, .completion(.failure(.offline))), (nil, .completion(.finished)),
        ])
        let failed = reporting(to: log) { PublisherFailureExpectation(broken) }
        wait(for: [failed], timeout: 0)
        XCTAssertEqual(
            log.messages,
            [
                "PublisherFailureExpectation() was over-fulfilled: the publisher sent finished after it had failed with "
                    + "TestError.offline, which breaks the subscription contract (values before: [])."
            ])
    }

    func testOnVirtualTime() {
        let log = FailureLog()
        let clock = VirtualClock()
        let subject = scheduledSubject(
            on: clock, [(tick: Int64, value: Int)](), completion: (40, .failure(TestError.offline)),
            failing: TestError.self
        )
        let offline = reporting(to: log) { PublisherFailureExpectation(subject, expectedError: .offline) }
        wait(for: [offline], advancing: clock, by: .ticks(40))
        XCTAssertEqual(log.messages, [])
    }
}
#endif
