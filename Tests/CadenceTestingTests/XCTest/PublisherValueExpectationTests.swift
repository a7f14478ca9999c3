#if canImport(XCTest)
import CadenceTesting
import Foundation
import XCTest

final class PublisherValueExpectationTests: XCTestCase {
    func testAValueFromAnotherThreadFulfilsIt() {
        let log = FailureLog()
        let subject = PassthroughSubject<Int, Never>()
        let three = reporting(to: log) { PublisherValueExpectation(subject, expectedValue: 3) }
        sendLater([1, 2, 3], then: nil, to: subject)
        wait(for: [three], timeout: 10)
        XCTAssertEqual(three.values, [1, 2, 3])
        XCTAssertEqual(log.messages, [])
    }

    func testAConditionIsMetByASynchronousValue() {
        let log = FailureLog()
        let big = reporting(to: log) { PublisherValueExpectation([1, 5, 2].publisher) { $0 > 4 } }
        wait(for: [big], timeout: 0)
        XCTAssertEqual(log.messages, [])
    }

    func testItWorksWithAwaitFulfillment() async {
        let log = FailureLog()
        let subject = PassthroughSubject<Int, Never>()
        let three = reporting(to: log) { PublisherValueExpectation(subject, expectedValue: 3) }
        sendLater([3], then: nil, to: subject)
        await fulfillment(of: [three], timeout: 10)
        XCTAssertEqual(log.messages, [])
    }

    func testFinishingWithoutTheValueFailsFast() {
        let log = FailureLog()
        let subject = PassthroughSubject<Int, Never>()
        let three = reporting(to: log) { PublisherValueExpectation(subject, expectedValue: 3) }
        sendLater([1, 2], then: .finished, to: subject)
        XCTAssertEqual(waitResult(for: three, timeout: 60), .completed)
        XCTAssertEqual(
            log.messages,
            [
                "PublisherValueExpectation(expectedValue: 3) failed: the publisher finished after sending [1, 2] "
                    + "without a value equal to 3."
            ])
    }

    func testFailingWithoutAValueFailsFast() {
        let log = FailureLog()
        let subject = PassthroughSubject<Int, TestError>()
        let big = reporting(to: log) { PublisherValueExpectation(subject) { $0 > 4 } }
        sendLater([], then: .failure(.offline), to: subject)
        XCTAssertEqual(waitResult(for: big, timeout: 60), .completed)
        XCTAssertEqual(
            log.messages,
            [
                "PublisherValueExpectation(condition:) failed: the publisher failed with TestError.offline without "
                    + "sending a value."
            ])
    }

    func testAnAlreadyCompletedPublisherResolvesAtOnce() {
        let log = FailureLog()
        let three = reporting(to: log) { PublisherValueExpectation([1, 2].publisher, expectedValue: 3) }
        XCTAssertEqual(waitResult(for: three, timeout: 60), .completed)
        XCTAssertEqual(
            log.messages,
            [
                "PublisherValueExpectation(expectedValue: 3) failed: the publisher finished after sending [1, 2] "
                    + "without a value equal to 3."
            ])
    }

    func testInvertedRightAfterCreationItPassesWhenNoValueMatches() {
        let log = FailureLog()
        let seven = reporting(to: log) { PublisherValueExpectation([1, 2].publisher, expectedValue: 7) }
        seven.isInverted = true
        wait(for: [seven], timeout: 0.05)
        XCTAssertEqual(log.messages, [])
    }

    func testASecondMatchingValueIsAnOverFulfilmentNotACrash() {
        let log = FailureLog()
        let subject = PassthroughSubject<Int, Never>()
        let three = reporting(to: log) { PublisherValueExpectation(subject, expectedValue: 3) }
        three.assertForOverFulfill = true
        for value in [3, 1, 3, 3] { subject.send(value) }
        wait(for: [three], timeout: 0)
        XCTAssertEqual(
            log.messages,
            [
                "PublisherValueExpectation(expectedValue: 3) was fulfilled more than once: 3 arrived after the "
                    + "expectation had already been fulfilled (received [3, 1, 3]). Set assertForOverFulfill to false "
                    + "to allow it."
            ])
    }

    func testByDefaultASecondMatchIsFine() {
        let log = FailureLog()
        let three = reporting(to: log) { PublisherValueExpectation([3, 1, 3].publisher, expectedValue: 3) }
        XCTAssertFalse(three.assertForOverFulfill)
        wait(for: [three], timeout: 0)
        XCTAssertEqual(log.messages, [])
    }

    func testExpectedFulfillmentCountTakesThatManyMatches() {
        let log = FailureLog()
        let subject = PassthroughSubject<Int, Never>()
        let three = reporting(to: log) { PublisherValueExpectation(subject, expectedValue: 3) }
        three.expectedFulfillmentCount = 2
        three.assertForOverFulfill = true
        for value in [3, 1, 3] { subject.send(value) }
        XCTAssertEqual(waitResult(for: three, timeout: 10), .completed)
        XCTAssertEqual(log.messages, [])
    }

    func testOneMatchShortOfExpectedFulfillmentCountIsNotEnough() {
        let subject = PassthroughSubject<Int, Never>()
        let three = PublisherValueExpectation(subject, expectedValue: 3)
        three.expectedFulfillmentCount = 2
        subject.send(3)
        XCTAssertEqual(waitResult(for: three, timeout: 0.01), .timedOut)
    }

    func testAMatchBeyondExpectedFulfillmentCountIsAnOverFulfilment() {
        let log = FailureLog()
        let subject = PassthroughSubject<Int, Never>()
        let three = reporting(to: log) { PublisherValueExpectation(subject, expectedValue: 3) }
        three.expectedFulfillmentCount = 2
        three.assertForOverFulfill = true
        for value in [3, 3, 1, 3, 3] { subject.send(value) }
        wait(for: [three], timeout: 0)
        XCTAssertEqual(
            log.messages,
            [
                "PublisherValueExpectation(expectedValue: 3) was fulfilled more than 2 times: 3 arrived after the "
                    + "expectation had already been fulfilled 2 times, its expectedFulfillmentCount (received [3, 3, 1, "
                    + "3]). Set assertForOverFulfill to false to allow it."
            ])
    }

    func testFinishingShortOfExpectedFulfillmentCountFailsFast() {
        let log = FailureLog()
        let subject = PassthroughSubject<Int, Never>()
        let three = reporting(to: log) { PublisherValueExpectation(subject, expectedValue: 3) }
        three.expectedFulfillmentCount = 3
        sendLater([3, 1], then: .finished, to: subject)
        XCTAssertEqual(waitResult(for: three, timeout: 60), .completed)
        XCTAssertEqual(
            log.messages,
            [
                "PublisherValueExpectation(expectedValue: 3) failed: the publisher finished after sending [3, 1], which "
                    + "fulfilled it 1 of the 3 times it expects (expectedFulfillmentCount)."
            ])
    }

    func testFinishingWithoutTheValueFailsFastWithAwaitFulfillment() async {
        let log = FailureLog()
        let subject = PassthroughSubject<Int, Never>()
        let three = reporting(to: log) { PublisherValueExpectation(subject, expectedValue: 3) }
        sendLater([1, 2], then: .finished, to: subject)
        // A wait that ran out its timeout would fail this test.
        await fulfillment(of: [three], timeout: 60)
        XCTAssertEqual(
            log.messages,
            [
                "PublisherValueExpectation(expectedValue: 3) failed: the publisher finished after sending [1, 2] "
                    + "without a value equal to 3."
            ])
    }

    func testOnVirtualTime() {
        let log = FailureLog()
        let clock = VirtualClock()
        let subject = scheduledSubject(on: clock, [(100, 1), (300, 3)])
        let three = reporting(to: log) { PublisherValueExpectation(subject, expectedValue: 3) }
        wait(for: [three], advancing: clock, by: .ticks(300))
        XCTAssertEqual(clock.now.ticks, 300)
        XCTAssertEqual(log.messages, [])
    }

    func testOnVirtualTimeAFinishFailsAtItsTick() {
        let log = FailureLog()
        let clock = VirtualClock()
        let subject = scheduledSubject(on: clock, [(100, 1)], completion: (200, .finished))
        let three = reporting(to: log) { PublisherValueExpectation(subject, expectedValue: 3) }
        wait(for: [three], advancing: clock)
        XCTAssertEqual(
            log.messages,
            [
                "PublisherValueExpectation(expectedValue: 3) failed: the publisher finished after sending [1] without "
                    + "a value equal to 3."
            ])
    }

    func testOnVirtualTimeWithAwaitFulfillment() async {
        let log = FailureLog()
        let clock = VirtualClock()
        let subject = scheduledSubject(on: clock, [(50, 3)])
        let three = reporting(to: log) { PublisherValueExpectation(subject, expectedValue: 3) }
        await fulfillment(of: [three], advancing: clock, by: .ticks(50))
        XCTAssertEqual(log.messages, [])
    }

    func testTheDescriptionNamesTheCallAndTheValuesSoFar() {
        let subject = PassthroughSubject<Int, Never>()
        let three = PublisherValueExpectation(subject, expectedValue: 3)
        XCTAssertEqual(
            three.expectationDescription, "PublisherValueExpectation(expectedValue: 3) (received no value so far)"
        )
        subject.send(1)
        subject.send(2)
        XCTAssertEqual(
            three.expectationDescription, "PublisherValueExpectation(expectedValue: 3) (received [1, 2] so far)"
        )
        subject.send(3)
        XCTAssertEqual(three.expectationDescription, "PublisherValueExpectation(expectedValue: 3)")
        let named = PublisherValueExpectation(subject, expectedValue: 3, description: "three")
        XCTAssertEqual(named.expectationDescription, "three (received no value so far)")
        subject.send(3)
        wait(for: [three, named], timeout: 0)
    }

    func testReleasingItCancelsItsSubscription() {
        let cancelled = Synchronized(false)
        let subject = PassthroughSubject<Int, Never>()
        let watched = subject.handleEvents(receiveCancel: { cancelled.withLock { $0 = true } })
        var three: PublisherValueExpectation<Publishers.HandleEvents<PassthroughSubject<Int, Never>>>? =
            PublisherValueExpectation(watched, expectedValue: 3)
        XCTAssertEqual(three?.values, [])
        three = nil
        XCTAssertEqual(cancelled.withLock { $0 }, true)
    }

    func testManyThreadsSendingAtOnceFulfilItOnce() {
        let log = FailureLog()
        let subject = PassthroughSubject<Int, Never>()
        let three = reporting(to: log) { PublisherValueExpectation(subject, expectedValue: 3) }
        three.assertForOverFulfill = true
        nonisolated(unsafe) let shared = subject
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for value in 0..<20 { shared.send(value % 4) }
        }
        wait(for: [three], timeout: 0)
        XCTAssertEqual(log.messages.count, 1)
        XCTAssertEqual(
            log.messages.first?.hasPrefix(
                "PublisherValueExpectation(expectedValue: 3) was fulfilled more than once: 3 arrived after the "
            ), true)
    }
}
#endif
