// The XCTest case running when Cadence's observer of test cases is installed — none in a test run, where
// CadenceTesting registers the observer when it is loaded, but one when an image linking CadenceTesting is opened while
// a test case already runs. The observer did not see it start, so it could not add a teardown block to it: its late
// failures are reported as they arrive, while it runs, and as strays naming it once it has finished. In this process
// the shared observer was installed long ago, so the tests drive an observer of their own, which XCTest does not know
// of, through the same calls.
#if canImport(XCTest)
import CadenceSupport
@testable import CadenceTesting
import XCTest

final class FirstTestCaseXCTests: FailureCapturingTestCase {
    /// Where the chain was written.
    private static let chainLine = #line + 1
    private static let chain = SourceCodeLocation()
    private static let late = ExpectationFailure(
        message: "expect(PassthroughSubject<Int, Never>) received 1 event after its chain had ended: 2.",
        location: chain
    )

    func testTheCaseRunningWhenTheObserverIsInstalledGetsAScopeWithNoLateChecksToHold() throws {
        let observer = XCTestCaseObserver()
        let scope = try XCTUnwrap(observer.scopeForNewExpectation())
        XCTAssertNil(scope.expectations, "with no teardown block, nothing would ever run the late checks it held")
        XCTAssertTrue(observer.scopeForNewExpectation() === scope, "the case's later expectations share its scope")
    }

    func testItsLateFailureFailsItAsItArrivesWhileItRuns() throws {
        let observer = XCTestCaseObserver()
        let scope = try XCTUnwrap(observer.scopeForNewExpectation())
        let failures = capturingXCTestFailures { scope.reporter.report(Self.late) }
        XCTAssertEqual(
            failures,
            [
                Recorded(
                    message:
                        "failed - expect(PassthroughSubject<Int, Never>) received 1 event after its chain had ended: 2.",
                    file: "\(#filePath)", line: Self.chainLine
                )
            ])
        XCTAssertEqual(observer.strays, [])
    }

    func testOnceItHasFinishedItsLateFailureIsAStrayNamingItAndFailsNoTest() throws {
        let observer = XCTestCaseObserver()
        let scope = try XCTUnwrap(observer.scopeForNewExpectation())
        observer.testCaseDidFinish(self)
        XCTAssertNil(observer.scopeForNewExpectation(), "between test cases no case is running")
        let strays = FailureLog()
        let failures = capturingXCTestFailures {
            XCTestCaseObserver.$strayDestination.withValue(strays.reporter) { scope.reporter.report(Self.late) }
        }
        XCTAssertEqual(failures, [], "the test running now must not fail")
        XCTAssertEqual(
            strays.messages,
            [
                "\(name): this failure was found after the test had finished, so it fails no test: "
                    + "expect(PassthroughSubject<Int, Never>) received 1 event after its chain had ended: 2."
            ])
        XCTAssertEqual(strays.failures.map(\.location.line), [Self.chainLine], "at the chain")
        XCTAssertEqual(observer.strays, [], "caught here, it is neither written to standard error nor counted")
    }

    func testTheNextCaseIsFollowedFromItsStartAndHoldsItsLateChecksUntilItsTeardown() throws {
        let observer = XCTestCaseObserver()
        let first = try XCTUnwrap(observer.scopeForNewExpectation())
        observer.testCaseDidFinish(self)
        // This test case stands in for the next one (the observer adds its teardown block to it).
        observer.testCaseWillStart(self)
        let scope = try XCTUnwrap(observer.scopeForNewExpectation())
        XCTAssertFalse(scope === first)
        XCTAssertNotNil(scope.expectations, "a case seen starting has a teardown block to run its late checks")
        observer.testCaseDidFinish(self)
        XCTAssertNil(observer.scopeForNewExpectation())
    }
}
#endif
