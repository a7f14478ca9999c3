#if canImport(XCTest)
import CadenceTesting
import XCTest

/// `checkPublisherContract` from an XCTest test: a broken rule is recorded by XCTest at the call.
final class PublisherContractXCTests: FailureCapturingTestCase {
    func testABrokenRuleIsRecordedByXCTestAtTheCall() {
        let failures = capturingXCTestFailures {
            checkPublisherContract { FloodingPublisher() }
        }
        // Linux's `XCTFail` prefixes its message with "failed - ".
        XCTAssertEqual(
            failures.map(\.message),
            [
                "failed - checkPublisherContract: FloodingPublisher broke rule 1.1 (a publisher sends no more values than "
                    + "requested): it sent 2 values when max(1) had been requested, in the probe \"demand one at a time\"."
            ])
        XCTAssertEqual(failures.map(\.line), [#line - 9])
        XCTAssertEqual(failures.map(\.file), [#filePath])
    }

    func testAPublisherThatKeepsTheContractRecordsNothing() {
        let failures = capturingXCTestFailures {
            checkPublisherContract { [1, 2, 3].publisher.map { $0 * 2 } }
        }
        XCTAssertEqual(failures, [])
    }
}
#endif
