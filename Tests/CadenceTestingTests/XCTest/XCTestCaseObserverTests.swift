// What a user's run shows of a failure found after its XCTest test had finished: a warning on standard error naming
// the test, and one line counting such failures at the end of the run. Checked in a child process whose standard error
// the test reads, so that the project's own run prints neither.
#if DEBUG && canImport(XCTest) && (!canImport(Combine) || os(macOS))
import CadenceSupport
@testable import CadenceTesting
import Foundation
import Testing

@Suite("XCTestCaseObserver")
struct XCTestCaseObserverTests {
    /// What standard error gets of a stray and of the run's end.
    private static let warning = """
        App/A.swift:3:5: warning: AppTests.testA: this failure was found after the test had finished, so it fails no \
        test: expect(Just<Int>) received 1 event after its chain had ended: 2.
        Cadence: 1 failure was found after its XCTest test had finished and fails no test; see the warning above.

        """

    /// The stray as a test takes it, printed `<location>: <message>`.
    private static let taken = """
        App/A.swift:3:5: AppTests.testA: this failure was found after the test had finished, so it fails no test: \
        expect(Just<Int>) received 1 event after its chain had ended: 2.

        """

    @Test("a stray is a warning on standard error that names its test, and the run's end counts it")
    func aStrayIsWrittenToStandardError() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let observer = XCTestCaseObserver()
            observer.reportStray(
                ExpectationFailure(
                    message: "expect(Just<Int>) received 1 event after its chain had ended: 2.",
                    location: SourceCodeLocation(
                        fileID: "App/A.swift", filePath: "/src/App/A.swift", line: 3, column: 5
                    )
                ),
                of: "AppTests.testA"
            )
            observer.testBundleDidFinish(Bundle.main)
        }
        let written = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) }
        #expect(written == Self.warning)
    }

    @Test("a stray sent where a test bound strayDestination is neither written to standard error nor counted")
    func aBoundDestinationTakesTheStray() async {
        let result = await #expect(
            processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
        ) {
            let observer = XCTestCaseObserver()
            let strays = FailureLog()
            XCTestCaseObserver.$strayDestination.withValue(strays.reporter) {
                observer.reportStray(
                    ExpectationFailure(
                        message: "expect(Just<Int>) received 1 event after its chain had ended: 2.",
                        location: SourceCodeLocation(
                            fileID: "App/A.swift", filePath: "/src/App/A.swift", line: 3, column: 5
                        )
                    ),
                    of: "AppTests.testA"
                )
            }
            observer.testBundleDidFinish(Bundle.main)
            print(strays.failures.map { "\($0.location): \($0.message)" }.joined(separator: "\n"))
        }
        let output = result.map { String(decoding: $0.standardOutputContent, as: UTF8.self) }
        let errors = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) }
        #expect(output == Self.taken)
        #expect(errors == "")
    }
}
#endif
