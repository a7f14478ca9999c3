import CadenceTesting
import Testing

/// Whether `issue` is an error, which fails the test, rather than a warning (every issue is, before Swift 6.3).
func isError(_ issue: Issue) -> Bool {
    #if compiler(>=6.3)
    return issue.severity == .error
    #else
    return true
    #endif
}

// Issue severities are public from Swift 6.3.
#if compiler(>=6.3)

/// One issue a test is expected to record: its comment, severity and line.
struct ExpectedIssue: Sendable, Equatable, CustomStringConvertible {
    var message: String
    var severity: Issue.Severity
    var line: Int?

    init(_ message: String, severity: Issue.Severity = .error, line: Int?) {
        self.message = message
        self.severity = severity
        self.line = line
    }

    init(_ issue: Issue) {
        message = issue.comments.map(\.rawValue).joined(separator: "\n")
        severity = issue.severity
        line = issue.sourceLocation?.line
    }

    var description: String { "[\(severity) at line \(line.map(String.init) ?? "?")]\n\(message)" }
}

/// A test trait that takes every issue recorded inside it — by the test, and by the traits listed after it — out of
/// the test, and checks that they are exactly `expected`: comment, severity and line.
///
/// It exercises the real path into Swift Testing (`Issue.record` from a trait's scope), where `.reportsFailures`
/// replaces it with a recording reporter. List it before `.virtualTime`.
struct RecordsIssuesTrait: TestTrait, TestScoping {
    let expected: [ExpectedIssue]
    let sourceLocation: SourceLocation

    func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let recorded = Synchronized<[ExpectedIssue]>([])
        let handler = IssueHandlingTrait.compactMapIssues { issue in
            recorded.update { $0.append(ExpectedIssue(issue)) }
            return nil
        }
        try await handler.provideScope(for: test, testCase: testCase, performing: function)
        if recorded.value != expected {
            Issue.record(
                Comment(
                    rawValue: differingReports(
                        expected: expected.map(\.description), received: recorded.value.map(\.description)
                    )),
                sourceLocation: sourceLocation
            )
        }
    }
}

extension Trait where Self == RecordsIssuesTrait {
    /// Checks that the test (and the traits listed after this one) record exactly `expected` as issues, and keeps
    /// them from failing the test.
    static func recordsIssues(
        _ expected: [ExpectedIssue],
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Self {
        RecordsIssuesTrait(expected: expected, sourceLocation: sourceLocation)
    }
}
#endif
