import Testing

// Reaches `FailureReporter.standardErrorText(for:)` with @testable, which debug builds allow.
#if DEBUG
@testable import CadenceTesting
#else
import CadenceTesting
#endif

@Suite("FailureReporter.standardError")
struct FailureReporterStandardErrorTests {
    #if DEBUG
    @Test("each failure is one error line, <fileID>:<line>:<column>: error: <message>, the message kept whole")
    func text() {
        let failure = ExpectationFailure(
            message: "toEmit(2) failed: the value differs.\n\n    expect(Just<Int>)",
            location: SourceCodeLocation(
                fileID: "App/SearchTests.swift", filePath: "/src/App/SearchTests.swift",
                line: 12, column: 9)
        )
        #expect(
            FailureReporter.standardErrorText(for: failure)
                == "App/SearchTests.swift:12:9: error: toEmit(2) failed: the value differs.\n\n    expect(Just<Int>)\n")
    }
    #endif

    #if !canImport(Combine) || os(macOS)
    @Test("it writes to standard error and fails nothing")
    func writes() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            FailureReporter.standardError.report(
                ExpectationFailure(
                    message: "first\nsecond",
                    location: SourceCodeLocation(
                        fileID: "App/A.swift", filePath: "/src/App/A.swift", line: 3, column: 5)
                ))
        }
        let written = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) }
        #expect(written == "App/A.swift:3:5: error: first\nsecond\n")
    }
    #endif
}
