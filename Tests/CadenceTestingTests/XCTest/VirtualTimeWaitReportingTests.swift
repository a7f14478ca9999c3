// Where `wait(for:advancing:)` and `fulfillment(of:advancing:)` report an unfulfilled expectation: at the line that
// called them, on Linux as on Apple platforms (where XCTest's own `wait(for:timeout:)` takes no location). A
// `FailureCapturingTestCase` captures what XCTest would record instead of failing, and checks the exact text, file
// and line.
#if canImport(XCTest)
import CadenceTesting
import Foundation
import XCTest

final class VirtualTimeWaitReportingTests: FailureCapturingTestCase {
    /// Waits on `clock` from a synchronous context, as a synchronous XCTest test does.
    private func waitSynchronously(
        for expectations: [XCTestExpectation], advancing clock: VirtualClock, by duration: Duration,
        line: UInt = #line
    ) {
        wait(for: expectations, advancing: clock, by: duration, line: line)
    }

    func testAnUnfulfilledExpectationIsReportedAtTheWaitsLine() async {
        let clock = VirtualClock()
        let subject = scheduledSubject(on: clock, [(100, 1), (500, 3)])
        let three = PublisherValueExpectation(subject, expectedValue: 3)
        var line = 0
        let failures = capturingXCTestFailures {
            line = #line + 1
            waitSynchronously(for: [three], advancing: clock, by: .ticks(499))
        }
        XCTAssertEqual(
            failures,
            [
                Recorded(
                    message: "failed - wait(for:advancing:) failed: at tick 499, 1 expectation was not fulfilled: "
                        + "\"PublisherValueExpectation(expectedValue: 3) (received [1] so far)\".",
                    file: "\(#filePath)", line: line
                )
            ])
    }

    func testTheAsyncFormReportsAtItsLineToo() async {
        let clock = VirtualClock()
        let fired = XCTestExpectation(description: "fired")
        let later = XCTestExpectation(description: "later")
        clock.schedule(after: .ticks(10)) { fired.fulfill() }
        var line = 0
        let failures = await capturingXCTestFailures {
            line = #line + 1
            await fulfillment(of: [fired, later], advancing: clock, by: .ticks(10))
        }
        XCTAssertEqual(
            failures,
            [
                Recorded(
                    message: "failed - fulfillment(of:advancing:) failed: at tick 10, 1 expectation was not fulfilled: "
                        + "\"later\".",
                    file: "\(#filePath)", line: line
                )
            ])
    }

    func testAFulfilledInvertedExpectationIsReported() async {
        let log = FailureLog()
        let clock = VirtualClock()
        let nothing = XCTestExpectation(description: "nothing happens")
        nothing.isInverted = true
        clock.schedule(after: .ticks(5)) { nothing.fulfill() }
        let line = #line + 1
        await FailureReporter.$current.withValue(log.reporter) { await fulfillment(of: [nothing], advancing: clock) }
        XCTAssertEqual(
            log.messages,
            [
                "fulfillment(of:advancing:) failed: at tick 5, 1 inverted expectation was fulfilled: \"nothing happens\"."
            ])
        XCTAssertEqual(log.failures.map(\.location.line), [line])
        XCTAssertEqual(log.failures.map(\.location.filePath), ["\(#filePath)"])
    }

    func testFulfilmentOutOfOrderIsReportedWhenOrderIsEnforced() async {
        let log = FailureLog()
        let clock = VirtualClock()
        let first = XCTestExpectation(description: "first")
        let second = XCTestExpectation(description: "second")
        clock.schedule(after: .ticks(1)) { second.fulfill() }
        clock.schedule(after: .ticks(2)) { first.fulfill() }
        await FailureReporter.$current.withValue(log.reporter) {
            await fulfillment(of: [first, second], advancing: clock, enforceOrder: true)
        }
        XCTAssertEqual(
            log.messages,
            [
                "fulfillment(of:advancing:) failed: at tick 2, the expectations were not fulfilled in the order given "
                    + "(enforceOrder: true)."
            ])
    }

    func testAWaitThatSucceedsReportsNothing() async {
        let log = FailureLog()
        let clock = VirtualClock()
        let fired = XCTestExpectation(description: "fired")
        let quiet = XCTestExpectation(description: "quiet")
        quiet.isInverted = true
        clock.schedule(after: .ticks(3)) { fired.fulfill() }
        await FailureReporter.$current.withValue(log.reporter) {
            await fulfillment(of: [fired, quiet], advancing: clock)
        }
        XCTAssertEqual(log.messages, [])
        XCTAssertEqual(clock.now.ticks, 3)
    }
}
#endif
