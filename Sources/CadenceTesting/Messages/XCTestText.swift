import CadenceSupport

/// The sentences Cadence writes about XCTest's test cases themselves, rather than about one chain.
enum XCTestText {
    /// A failure found after the XCTest test case it belongs to had finished, as written to standard error:
    ///
    /// ```text
    /// LateEventXCTests.testA: this failure was found after the test had finished, so it fails no test: expect(…) …
    /// ```
    static func stray(_ failure: ExpectationFailure, of testName: String) -> String {
        "\(testName): this failure was found after the test had finished, so it fails no test: \(failure.message)"
    }

    /// A `KeyPathValueExpectation` whose value became the wanted one again after it was fulfilled: `"KeyPath…(…) was
    /// fulfilled more than once: the value became 3 again after the expectation had already been fulfilled (values
    /// read: [0, 3, 1, 3]). Set assertForOverFulfill to false to allow it."`
    static func keyPathOverFulfilled(_ call: String, wanted: String, read: [String]) -> String {
        "\(call) was fulfilled more than once: the value became \(wanted) again after the expectation had already "
            + "been fulfilled (values read: [\(read.joined(separator: ", "))]). Set assertForOverFulfill to false to "
            + "allow it."
    }

    /// What an unfulfilled key-path expectation's description ends with, so that XCTest's timeout message names the
    /// values it read: `" (read [true, false] so far)"`.
    static func keyPathReadSoFar(_ read: [String]) -> String {
        " (read [\(read.joined(separator: ", "))] so far)"
    }

    /// The line at the end of an XCTest run that had strays: `"2 failures were found after their XCTest tests had
    /// finished and fail no test; see the warnings above."`
    static func straysSummary(count: Int) -> String {
        if count == 1 {
            return "1 failure was found after its XCTest test had finished and fails no test; see the warning above."
        }
        return "\(count) failures were found after their XCTest tests had finished and fail no test; see the warnings "
            + "above."
    }
}
