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
                        + "\"PublisherValueExpectation(expectedValue: 3) (received [1] so far)\"; it arrived at tick "
                        + "500, 1 tick late.",
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

    // MARK: A budget that ran out

    /// As a budget step of the DSL does, a wait whose budget ran out runs the clock on to say when the value came,
    /// and leaves the clock there; the work after it waits for the test.
    func testAShortBudgetSaysWhenTheValueArrivedAndLeavesTheClockThere() {
        let log = FailureLog()
        let clock = VirtualClock()
        let subject = scheduledSubject(on: clock, [(2000, 3)])
        let after = Synchronized<[Int64]>([])
        clock.schedule(at: VirtualClock.Instant(ticks: 2500)) { after.withLock { $0.append(clock.now.ticks) } }
        let three = PublisherValueExpectation(subject, expectedValue: 3)
        let line = #line + 1
        FailureReporter.$current.withValue(log.reporter) { wait(for: [three], advancing: clock, by: .seconds(1)) }
        XCTAssertEqual(
            log.messages,
            [
                "wait(for:advancing:) failed: at tick 1000, 1 expectation was not fulfilled: "
                    + "\"PublisherValueExpectation(expectedValue: 3) (received no value so far)\"; it arrived at tick "
                    + "2000, 1000 ticks late."
            ])
        XCTAssertEqual(log.failures.map(\.location.line), [line])
        XCTAssertEqual(clock.now.ticks, 2000)
        XCTAssertEqual(after.withLock { $0 }, [])
        XCTAssertEqual(clock.pendingCount, 1)
    }

    /// Each expectation left unfulfilled is told of: one that arrives late, one whose publisher completes without
    /// it, one that never comes before the clock runs out of work.
    func testTheAsyncFormSaysWhatBecameOfEachExpectation() async {
        let log = FailureLog()
        let clock = VirtualClock()
        let late = PublisherValueExpectation(scheduledSubject(on: clock, [(25, 3)]), expectedValue: 3)
        let completed = PublisherValueExpectation(
            scheduledSubject(on: clock, [(12, 1)], completion: (30, .finished)), expectedValue: 3)
        let never = PublisherValueExpectation(scheduledSubject(on: clock, [(40, 1)]), expectedValue: 3)
        await FailureReporter.$current.withValue(log.reporter) {
            await fulfillment(of: [late, completed, never], advancing: clock, by: .ticks(10))
        }
        XCTAssertEqual(
            log.messages,
            [
                "fulfillment(of:advancing:) failed: at tick 10, 3 expectations were not fulfilled: "
                    + "\"PublisherValueExpectation(expectedValue: 3) (received no value so far)\", "
                    + "\"PublisherValueExpectation(expectedValue: 3) (received no value so far)\", "
                    + "\"PublisherValueExpectation(expectedValue: 3) (received no value so far)\"; the first arrived at "
                    + "tick 25, 15 ticks late; the second could no longer arrive from tick 30, when its publisher "
                    + "completed; the third had not arrived by tick 40, when the clock had nothing left to run."
            ])
        XCTAssertEqual(clock.now.ticks, 40)
    }

    /// The look-ahead is the DSL's: at most 10,000 actions past the budget.
    func testTheLookAheadStopsAfterTenThousandActions() {
        let log = FailureLog()
        let clock = VirtualClock()
        let ticking = clock.schedule(at: VirtualClock.Instant(ticks: 1), every: .milliseconds(1)) {}
        let three = PublisherValueExpectation(PassthroughSubject<Int, Never>(), expectedValue: 3)
        FailureReporter.$current.withValue(log.reporter) { wait(for: [three], advancing: clock, by: .ticks(5)) }
        ticking.cancel()
        XCTAssertEqual(
            log.messages,
            [
                "wait(for:advancing:) failed: at tick 5, 1 expectation was not fulfilled: "
                    + "\"PublisherValueExpectation(expectedValue: 3) (received no value so far)\"; it had not arrived by "
                    + "tick 10005, after the wait ran 10,000 actions past its budget."
            ])
        XCTAssertEqual(clock.now.ticks, 10005)
    }

    /// A plain `XCTestExpectation` cannot watch without being fulfilled: the wait does not run the clock on for it,
    /// as that would fulfil it after its wait (an API violation in Apple's XCTest).
    func testAPlainExpectationLeftUnfulfilledKeepsTheClockAtTheBudgetsEnd() async {
        let log = FailureLog()
        let clock = VirtualClock()
        let answered = XCTestExpectation(description: "answered")
        let three = PublisherValueExpectation(scheduledSubject(on: clock, [(20, 3)]), expectedValue: 3)
        clock.schedule(at: VirtualClock.Instant(ticks: 20)) { answered.fulfill() }
        await FailureReporter.$current.withValue(log.reporter) {
            await fulfillment(of: [answered, three], advancing: clock, by: .ticks(10))
        }
        XCTAssertEqual(
            log.messages,
            [
                "fulfillment(of:advancing:) failed: at tick 10, 2 expectations were not fulfilled: \"answered\", "
                    + "\"PublisherValueExpectation(expectedValue: 3) (received no value so far)\"."
            ])
        XCTAssertEqual(clock.now.ticks, 10)
        XCTAssertEqual(clock.pendingCount, 2)
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
