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
    /// The reporter for code that runs outside any test framework (a benchmark, a command-line tool), where XCTest
    /// cannot be imported; bind it with `FailureReporter.$current.withValue(.standardError) { … }` elsewhere.
    public static let standardError = FailureReporter(destination: .standardError, relay: nil) { failure in
        let text = standardErrorText(for: failure)
        _ = text.utf8CString.withUnsafeBufferPointer { buffer in
            write(2, buffer.baseAddress, buffer.count - 1)
        }
    }

    /// What ``standardError`` writes for `failure`, one write per failure.
    static func standardErrorText(for failure: ExpectationFailure) -> String {
        "\(failure.location): error: \(failure.message)\n"
    }
}
