#if canImport(XCTest)
@testable import CadenceTesting
import Testing
import XCTest

/// How `wait(for:advancing:)` and `fulfillment(of:advancing:)` read an `XCTWaiter`'s result, and what they report.
@Suite struct VirtualTimeWaitOutcomeTests {
    @Test func aTimeoutNamesTheUnfulfilledExpectationsNotTheInvertedOnes() {
        let done = XCTestExpectation(description: "done")
        let first = XCTestExpectation(description: "first")
        let second = XCTestExpectation(description: "second")
        let quiet = XCTestExpectation(description: "quiet")
        quiet.isInverted = true
        let outcome = VirtualTimeWaitOutcome(.timedOut, expectations: [done, first, quiet, second], fulfilled: [done])
        #expect(outcome == .unfulfilled(["first", "second"]))
        #expect(
            outcome.message(call: "wait(for:advancing:)", tick: 300) == """
                wait(for:advancing:) failed: at tick 300, 2 expectations were not fulfilled: "first", "second".
                """)
    }

    @Test func anInvertedFulfilmentNamesTheInvertedExpectationsFulfilled() {
        let done = XCTestExpectation(description: "done")
        let quiet = XCTestExpectation(description: "quiet")
        let silent = XCTestExpectation(description: "silent")
        quiet.isInverted = true
        silent.isInverted = true
        let outcome = VirtualTimeWaitOutcome(
            .invertedFulfillment, expectations: [done, quiet, silent], fulfilled: [done, quiet, silent]
        )
        #expect(outcome == .invertedFulfilled(["quiet", "silent"]))
        #expect(
            outcome.message(call: "fulfillment(of:advancing:)", tick: 0) == """
                fulfillment(of:advancing:) failed: at tick 0, 2 inverted expectations were fulfilled: "quiet", "silent".
                """)
    }

    @Test func aCompletedWaitReportsNothing() {
        let done = XCTestExpectation(description: "done")
        let outcome = VirtualTimeWaitOutcome(.completed, expectations: [done], fulfilled: [done])
        #expect(outcome == .completed)
        #expect(outcome.message(call: "wait(for:advancing:)", tick: 1) == nil)
    }

    @Test func anInterruptedWaitSaysSo() {
        let outcome = VirtualTimeWaitOutcome(.interrupted, expectations: [], fulfilled: [])
        #expect(
            outcome.message(call: "wait(for:advancing:)", tick: 7) == """
                wait(for:advancing:) failed: at tick 7, XCTest interrupted the wait.
                """)
    }
}
#endif
