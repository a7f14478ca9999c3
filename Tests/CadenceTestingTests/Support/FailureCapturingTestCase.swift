// An XCTestCase that can capture the failures XCTest is asked to record — message, file and line — instead of
// failing, so that a test checks what Cadence reports into XCTest for real. The suites that need it subclass it.
#if canImport(XCTest)
import Foundation
import XCTest

class FailureCapturingTestCase: XCTestCase {
    /// A failure XCTest was asked to record.
    struct Recorded: Equatable {
        var message: String
        var file: String
        var line: Int
    }

    // `captured` guards the list; nil when failures are not being captured (then they fail the test as usual).
    private let captured = Synchronized<[Recorded]?>(nil)

    /// Runs `body`, capturing the failures XCTest is asked to record meanwhile instead of failing the test.
    func capturingXCTestFailures(_ body: () -> Void) -> [Recorded] {
        captured.withLock { $0 = [] }
        body()
        return endCapture()
    }

    /// Runs `body`, capturing the failures XCTest is asked to record meanwhile instead of failing the test.
    func capturingXCTestFailures(_ body: () async -> Void) async -> [Recorded] {
        captured.withLock { $0 = [] }
        await body()
        return endCapture()
    }

    /// What `tearDown()` hands the failures the teardown reported.
    private var teardownChecks: [([Recorded]) -> Void] = []

    /// Captures the failures reported in the test case's teardown — the late events Cadence reports when it begins —
    /// and hands them to `check` in `tearDown()`. The capture starts in a teardown block added now, which runs before
    /// Cadence's (added when the test case started): teardown blocks run last added first.
    func checkingTeardownFailures(_ check: @escaping ([Recorded]) -> Void) {
        addTeardownBlock { [unowned self] in captured.withLock { $0 = [] } }
        teardownChecks.append(check)
    }

    override func tearDown() {
        if !teardownChecks.isEmpty {
            let failures = endCapture()
            for check in teardownChecks { check(failures) }
            teardownChecks = []
        }
        super.tearDown()
    }

    private func endCapture() -> [Recorded] {
        captured.withLock { list in
            defer { list = nil }
            return list ?? []
        }
    }

    /// Takes `failure` into the capture, if one is running.
    private func took(_ failure: Recorded) -> Bool {
        captured.withLock { list -> Bool in
            guard list != nil else { return false }
            list?.append(failure)
            return true
        }
    }

    #if canImport(ObjectiveC)
    override func record(_ issue: XCTIssue) {
        let location = issue.sourceCodeContext.location
        let failure = Recorded(
            message: issue.compactDescription, file: location?.fileURL.path ?? "", line: location?.lineNumber ?? 0
        )
        if !took(failure) { super.record(issue) }
    }
    #else
    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
        expected: Bool
    ) {
        if !took(Recorded(message: description, file: filePath, line: lineNumber)) {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }
    #endif
}
#endif
