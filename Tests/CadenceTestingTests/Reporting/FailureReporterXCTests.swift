// Failures reported into XCTest for real: a `FailureCapturingTestCase` captures what XCTest would record instead of
// failing, and checks the exact message, file and line. `FailureReporter.destination` is reached with @testable
// (debug builds).
#if canImport(XCTest) && DEBUG
@testable import CadenceTesting
import Foundation
import XCTest

final class FailureReporterXCTests: FailureCapturingTestCase {
    private static let toEmit2 = """
        toEmit(2) failed: the value differs: expected 2, received 1.

            expect(Just<Int>)
          ✗   .toEmit(2)

             received      expected
             subscription
          →  1             2         toEmit(2)
             finished
        """

    func testResolvedPicksXCTestOutsideSwiftTesting() {
        XCTAssertEqual(FailureReporter.resolved.destination, .xcTest)
    }

    func testBoundReporterStillWins() {
        let log = FailureLog()
        let destination = FailureReporter.$current.withValue(log.reporter) { FailureReporter.resolved.destination }
        XCTAssertEqual(destination, .custom)
    }

    func testFailedStepIsRecordedWithMessageFileAndLine() {
        let failures = capturingXCTestFailures {
            expect(Just(1)).toEmit(2)
        }
        XCTAssertEqual(failures, [Recorded(message: "failed - " + Self.toEmit2, file: #filePath, line: #line - 2)])
    }

    func testOverFulfilmentIsRecordedAtExpect() {
        let failures = capturingXCTestFailures {
            expect([1, 2].publisher)
                .toEmit(1)
        }
        XCTAssertEqual(failures.map(\.line), [#line - 3])
        XCTAssertEqual(failures.map(\.file), [#filePath])
        XCTAssertEqual(
            failures.first?.message.hasPrefix(
                "failed - expect(Publishers.Sequence<Array<Int>, Never>) received 2 events no step expected: 2, finished."
            ), true)
    }

    func testLateEventFromAnotherThreadFailsThisTestAtItsTeardown() {
        nonisolated(unsafe) let subject = PassthroughSubject<Int, Never>()
        let line = #line + 1
        expect(subject)
        let done = DispatchSemaphore(value: 0)
        Thread {
            subject.send(1)
            done.signal()
        }.start()
        XCTAssertEqual(done.wait(timeout: .now() + 600), .success)
        checkingTeardownFailures { failures in
            XCTAssertEqual(failures.map(\.line), [line])
            XCTAssertEqual(
                failures.first?.message.hasPrefix(
                    "failed - expect(PassthroughSubject<Int, Never>) received 1 event after its chain had ended: 1."
                ), true)
        }
    }

    func testUnimplementedSchedulerFailsThisTestAtItsCreation() {
        let failures = capturingXCTestFailures {
            let scheduler = DispatchQueue.unimplemented("xc")
            scheduler.schedule {}
        }
        XCTAssertEqual(
            failures,
            [
                Recorded(
                    message:
                        "failed - DispatchQueue.unimplemented(\"xc\") was asked to schedule(options:_:) an action to run "
                        + "as soon as possible; an unimplemented scheduler runs nothing, so the action was not run.",
                    file: #filePath, line: #line - 10
                )
            ])
    }
}
#endif
