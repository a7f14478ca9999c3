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
    /// MyAppTests/SearchTests.swift:12:9: error: toEmit(2) failed: value 1 of 1 differs: expected 2, received 1.
    /// ```
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
