#if canImport(Testing)
import Testing
#endif

extension FailureReporter {
    /// The reporter for a session's notes, given the reporter its failures go to: a bound ``current`` reporter takes
    /// both; otherwise a running Swift Testing test records notes as warnings, and anywhere else they go to standard
    /// error (XCTest has no warning level).
    static var resolvedForNotes: FailureReporter {
        if let bound { return bound }
        #if canImport(Testing)
        if Test.current != nil { return .swiftTestingWarning }
        #endif
        return .standardErrorWarning
    }

    #if canImport(Testing)
    /// Records each report as a Swift Testing issue of warning severity, which does not fail the test (before Swift
    /// 6.3, whose Swift Testing has no public severity, it writes to standard error instead).
    static let swiftTestingWarning: FailureReporter = {
        #if compiler(>=6.3)
        FailureReporter { failure in
            let location = failure.location
            Issue.record(
                Comment(rawValue: failure.message),
                severity: .warning,
                sourceLocation: SourceLocation(
                    fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column
                )
            )
        }
        #else
        standardErrorWarning
        #endif
    }()
    #endif
}
