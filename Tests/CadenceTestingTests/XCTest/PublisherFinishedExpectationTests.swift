#if canImport(XCTest)
import CadenceTesting
import Foundation
import XCTest

final class PublisherFinishedExpectationTests: XCTestCase {
    func testFinishingFromAnotherThreadFulfilsIt() {
        let log = FailureLog()
        let subject = PassthroughSubject<Int, Never>()
        let finished = reporting(to: log) { PublisherFinishedExpectation(subject) }
        sendLater([1], then: .finished, to: subject)
        wait(for: [finished], timeout: 10)
        XCTAssertEqual(finished.values, [1])
        XCTAssertEqual(log.messages, [])
    }

    func testTheLastValueBeforeFinishing() {
        let log = FailureLog()
        let subject = PassthroughSubject<Int, Never>()
        let three = reporting(to: log) { PublisherFinishedExpectation(subject, expectedValue: 3) }
        let big = reporting(to: log) { PublisherFinishedExpectation(subject) { $0 > 2 } }
        sendLater([1, 3], then: .finished, to: subject)
        wait(for: [three, big], timeout: 10)
        XCTAssertEqual(log.messages, [])
    }

    func testItWorksWithAwaitFulfillment() async {
        let log = FailureLog()
        let subject = PassthroughSubject<Int, Never>()
        let finished = reporting(to: log) { PublisherFinishedExpectation(subject, expectedValue: 1) }
        sendLater([1], then: .finished, to: subject)
        await fulfillment(of: [finished], timeout: 10)
        XCTAssertEqual(log.messages, [])
    }

    func testAWrongLastValueFailsFast() {
        let log = FailureLog()
        let subject = PassthroughSubject<Int, Never>()
        let three = reporting(to: log) { PublisherFinishedExpectation(subject, expectedValue: 3) }
        sendLater([1, 3, 2], then: .finished, to: subject)
        XCTAssertEqual(waitResult(for: three, timeout: 60), .completed)
        XCTAssertEqual(
            log.messages,
            [
                "PublisherFinishedExpectation(expectedValue: 3) failed: the publisher finished after sending [1, 3, 2]; "
                    + "the last value, 2, is not equal to 3."
            ])
    }

    func testNoValueAtAllFailsFast() {
        let log = FailureLog()
        let big = reporting(to: log) { PublisherFinishedExpectation(Empty<Int, Never>()) { $0 > 2 } }
        XCTAssertEqual(waitResult(for: big, timeout: 60), .completed)
        XCTAssertEqual(
            log.messages,
            [
                "PublisherFinishedExpectation(condition:) failed: the publisher finished without sending a value; "
                    + "expected a last value satisfying the condition."
            ])
    }

    func testAFailureFailsFast() {
        let log = FailureLog()
        let subject = PassthroughSubject<Int, TestError>()
        let finished = reporting(to: log) { PublisherFinishedExpectation(subject) }
        sendLater([1, 2], then: .failure(.timeout), to: subject)
        XCTAssertEqual(waitResult(for: finished, timeout: 60), .completed)
        XCTAssertEqual(
            log.messages,
            [
                "PublisherFinishedExpectation() failed: the publisher failed with TestError.timeout after sending [1, 2]."
            ])
    }

    func testAnAlreadyFinishedPublisherResolvesAtOnce() {
        let log = FailureLog()
        let finished = reporting(to: log) { PublisherFinishedExpectation([1, 2].publisher, expectedValue: 2) }
        wait(for: [finished], timeout: 0)
        XCTAssertEqual(log.messages, [])
    }

    func testAValueAfterFinishingIsAnOverFulfilment() {
        let log = FailureLog()
        let broken = ScriptedPublisher<Int, Never>([
            (nil, .subscription), (nil, .value(1)), (nil, .completion(.finished)), (nil, .value(2)),
            (nil, .completion(.finished)),
        ])
        let finished = reporting(to: log) { PublisherFinishedExpectation(broken) }
        wait(for: [finished], timeout: 0)
        XCTAssertEqual(
            log.messages,
            [
                "PublisherFinishedExpectation() was over-fulfilled: the publisher sent 2 after it had finished, which "
                    + "breaks the subscription contract (values before: [1])."
            ])
    }

    func testOnVirtualTime() {
        let log = FailureLog()
        let clock = VirtualClock()
        let subject = scheduledSubject(on: clock, [(10, 1), (20, 2)], completion: (30, .finished))
        let finished = reporting(to: log) { PublisherFinishedExpectation(subject, expectedValue: 2) }
        wait(for: [finished], advancing: clock, by: .ticks(30))
        XCTAssertEqual(log.messages, [])
    }

    func testOnVirtualTimeAFailureFailsAtItsTick() {
        let log = FailureLog()
        let clock = VirtualClock()
        let subject = scheduledSubject(
            on: clock, [(10, 1)], completion: (20, .failure(TestError.offline)),
            failing: TestError.self)
        let finished = reporting(to: log) { PublisherFinishedExpectation(subject) }
        wait(for: [finished], advancing: clock)
        XCTAssertEqual(
            log.messages,
            [
                "PublisherFinishedExpectation() failed: the publisher failed with TestError.offline after sending [1]."
            ])
    }
}
#endif
