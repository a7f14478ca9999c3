// Failures reported into XCTest for real: this XCTestCase captures what XCTest would record instead of failing, and
// checks the exact message, file and line. `FailureReporter.destination` is reached with @testable (debug builds).
#if canImport(XCTest) && DEBUG
@testable import CadenceTesting
import Foundation
import XCTest

final class FailureReporterXCTests: XCTestCase {
    /// A failure XCTest was asked to record.
    private struct Recorded: Equatable {
        var message: String
        var file: String
        var line: Int
    }

    // `capture` guards the list; nil when failures are not being captured (then they fail the test as usual).
    private let capture = Locked<[Recorded]?>(nil)

    /// Runs `body`, capturing every failure XCTest is asked to record meanwhile, and returns them.
    private func capturingFailures(_ body: () -> Void) -> [Recorded] {
        capture.withLock { $0 = [] }
        body()
        return capture.withLock { captured in
            defer { captured = nil }
            return captured ?? []
        }
    }

    private func captured(_ failure: Recorded) -> Bool {
        capture.withLock { captured in
            guard captured != nil else { return false }
            captured?.append(failure)
            return true
        }
    }

    #if canImport(ObjectiveC)
    override func record(_ issue: XCTIssue) {
        let location = issue.sourceCodeContext.location
        let failure = Recorded(
            message: issue.compactDescription, file: location?.fileURL.path ?? "", line: location?.lineNumber ?? 0
        )
        if !captured(failure) { super.record(issue) }
    }
    #else
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
                                expected: Bool) {
        let failure = Recorded(message: description, file: filePath, line: lineNumber)
        if !captured(failure) {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }
    #endif

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
        let failures = capturingFailures {
            expect(Just(1)).toEmit(2)
        }
        XCTAssertEqual(failures, [Recorded(message: "failed - " + Self.toEmit2, file: #filePath, line: #line - 2)])
    }

    func testOverFulfilmentIsRecordedAtExpect() {
        let failures = capturingFailures {
            expect([1, 2].publisher)
                .toEmit(1)
        }
        XCTAssertEqual(failures.map(\.line), [#line - 3])
        XCTAssertEqual(failures.map(\.file), [#filePath])
        XCTAssertEqual(failures.first?.message.hasPrefix(
            "failed - expect(Publishers.Sequence<Array<Int>, Never>) received 2 events no step expected: 2, finished."
        ), true)
    }

    func testLateEventFromAnotherThreadFailsThisTest() {
        nonisolated(unsafe) let subject = PassthroughSubject<Int, Never>()
        let line = #line + 2
        let failures = capturingFailures {
            expect(subject)
            let done = DispatchSemaphore(value: 0)
            Thread {
                subject.send(1)
                done.signal()
            }.start()
            done.wait()
        }
        XCTAssertEqual(failures.map(\.line), [line])
        XCTAssertEqual(failures.first?.message.hasPrefix(
            "failed - expect(PassthroughSubject<Int, Never>) received 1 event after its chain had ended: 1."
        ), true)
    }

    func testUnimplementedSchedulerFailsThisTestAtItsCreation() {
        let failures = capturingFailures {
            let scheduler = DispatchQueue.unimplemented("xc")
            scheduler.schedule {}
        }
        XCTAssertEqual(failures, [Recorded(
            message: "failed - DispatchQueue.unimplemented(\"xc\") was asked to schedule(options:_:) an action to run "
                + "as soon as possible; an unimplemented scheduler runs nothing, so the action was not run.",
            file: #filePath, line: #line - 6
        )])
    }
}
#endif
