// Linux only: with Apple's rules for `fulfill()` enforced (`CADENCE_APPLE_XCTEST_RULES=1`, or `isForced` here), a
// shim's `fulfill()` after a wait on virtual time has ended, or beyond its count with `assertForOverFulfill`, fails the
// running test with Apple's message. `.ci/run` runs every XCTest test with the rules enforced: a shim that breaks them
// fails the run on Linux, as it would on a Mac.
#if canImport(XCTest) && !canImport(ObjectiveC)
@testable import CadenceTesting
import Foundation
import XCTest

final class AppleFulfilmentRulesTests: FailureCapturingTestCase {
    func testAFulfilAfterAWaitOnVirtualTimeFailsTheTestWithApplesMessage() {
        let log = FailureLog()
        let clock = VirtualClock()
        let subject = PassthroughSubject<Int, Never>()
        let three = reporting(to: log) { PublisherValueExpectation(subject, expectedValue: 3) }
        let failures = AppleFulfilmentRules.$isForced.withValue(true) {
            capturingXCTestFailures {
                FailureReporter.$current.withValue(log.reporter) { wait(for: [three], advancing: clock, by: .ticks(1)) }
                three.fulfill() // what a shim must never do once its wait is over
            }
        }
        // Linux's `XCTFail` prefixes its message with "failed - ".
        XCTAssertEqual(
            failures.map(\.message),
            [
                "failed - API violation - called -[XCTestExpectation fulfill] after the wait context has ended for "
                    + "PublisherValueExpectation(expectedValue: 3) (received no value so far)."
            ])
        XCTAssertEqual(log.messages.count, 1) // the wait's own report: 3 never came
    }

    func testAFulfilBeyondTheCountWithAssertForOverFulfillFailsTheTest() {
        let log = FailureLog()
        let clock = VirtualClock()
        let subject = PassthroughSubject<Int, Never>()
        let one = reporting(to: log) { PublisherValueExpectation(subject, expectedValue: 1) }
        one.assertForOverFulfill = true
        subject.send(1)
        let failures = AppleFulfilmentRules.$isForced.withValue(true) {
            capturingXCTestFailures {
                FailureReporter.$current.withValue(log.reporter) { wait(for: [one], advancing: clock, by: .ticks(1)) }
                one.fulfill()
            }
        }
        XCTAssertEqual(
            failures.map(\.message),
            [
                "failed - API violation - multiple calls made to -[XCTestExpectation fulfill] for "
                    + "PublisherValueExpectation(expectedValue: 1)."
            ])
        XCTAssertEqual(log.messages, [])
    }

    func testTheRulesCountUpToTheExpectedFulfilmentCountAndIgnoreMoreWithoutAssertForOverFulfill() {
        var rules = AppleFulfilmentRules()
        XCTAssertNil(rules.violation(expected: 2, assertForOverFulfill: false))
        XCTAssertNil(rules.violation(expected: 2, assertForOverFulfill: false))
        XCTAssertNil(rules.violation(expected: 2, assertForOverFulfill: false))
        rules.noteWaitEnded()
        XCTAssertNil(rules.violation(expected: 2, assertForOverFulfill: false))
        XCTAssertEqual(rules.violation(expected: 2, assertForOverFulfill: true), .overFulfilled)
        XCTAssertEqual(
            AppleFulfilmentRules.Violation.fulfilledAfterWait.message(for: "e"),
            "API violation - called -[XCTestExpectation fulfill] after the wait context has ended for e."
        )
    }

    func testAFulfilAfterAWaitOnAnUnfulfilledCountIsAViolationEvenWithoutAssertForOverFulfill() {
        var rules = AppleFulfilmentRules()
        XCTAssertNil(rules.violation(expected: 2, assertForOverFulfill: false))
        rules.noteWaitEnded()
        XCTAssertEqual(rules.violation(expected: 2, assertForOverFulfill: false), .fulfilledAfterWait)
    }

    func testWithoutTheRulesAFulfilAfterTheWaitIsPassedOnAsLinuxAllows() {
        let log = FailureLog()
        let clock = VirtualClock()
        let subject = PassthroughSubject<Int, Never>()
        let three = reporting(to: log) { PublisherValueExpectation(subject, expectedValue: 3) }
        let failures = AppleFulfilmentRules.$isForced.withValue(false) {
            capturingXCTestFailures {
                FailureReporter.$current.withValue(log.reporter) { wait(for: [three], advancing: clock, by: .ticks(1)) }
                three.fulfill()
            }
        }
        XCTAssertEqual(failures.map(\.message), [])
    }
}
#endif
