#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension FailureReporter {
    /// Writes each failure to standard error as `<fileID>:<line>:<column>: error: <message>`, and fails nothing.
    ///
    /// ```text
    /// MyAppTests/SearchTests.swift:12:25: error: toEmit(2) failed: the value differs: expected 2, received 1.
    ///
    ///     expect(Just<Int>)
    ///   ✗   .toEmit(2)
    ///
    ///      received      expected
    ///      subscription
    ///   →  1             2         toEmit(2)
    ///      finished
    /// ```
    ///
    /// A report with no call site (misuse the clock or an operator found on its own) is written `Cadence: <message>`.
    ///
    /// The reporter for code that runs outside any test framework (a benchmark, a command-line tool), where XCTest
    /// cannot be imported; bind it with `FailureReporter.$current.withValue(.standardError) { … }` elsewhere.
    public static let standardError = FailureReporter(destination: .standardError) { failure in
        writeOut(standardErrorText(for: failure))
    }

    /// Writes each report to standard error as `<location>: warning: <message>`; it fails nothing.
    package static let standardErrorWarning = FailureReporter { failure in
        writeOut("\(failure.location): warning: \(failure.message)\n")
    }

    /// What ``standardError`` writes for `failure`, one write per failure.
    package static func standardErrorText(for failure: ExpectationFailure) -> String {
        if failure.location.isUnknown { return "Cadence: \(failure.message)\n" }
        return "\(failure.location): error: \(failure.message)\n"
    }

    /// Writes `text` to standard error in one `write`.
    private static func writeOut(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { buffer in
            write(2, buffer.baseAddress, buffer.count - 1)
        }
    }
}
