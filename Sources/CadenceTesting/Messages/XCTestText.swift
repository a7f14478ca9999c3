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
