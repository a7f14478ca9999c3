import CadenceSupport

#if canImport(Testing)
import Testing
#endif

/// Turns a broken Combine rule — misuse that Apple's Combine stops the process for, such as `request(.max(0))` on
/// `Just` or a value sent to `filter` before its subscription — into a failure of the running test, so that the test
/// goes on and the rest of the run is not lost.
///
/// Installed when the image that links CadenceTesting is loaded (`cadenceTestingDidLoad()`, called by the C
/// module `CadenceTestingLoad`), before any test runs: whether an `expect` has run yet changes nothing. Production
/// code does not link CadenceTesting, so there a broken rule stops the process as it does with Apple's Combine.
/// Where it lands:
///
/// 1. ``FailureReporter/current`` when one is bound (a test's recording reporter, or a virtual-time session's);
/// 2. the Swift Testing test running on this task, at the test's declaration;
/// 3. the XCTest test case running now (CadenceTesting follows XCTest's test cases from its load, see
///    `XCTestCaseObserver`);
/// 4. nowhere: on a thread of its own outside any of these, the rule cannot be tied to a test, and Cadence stops the
///    process as Combine does.
enum CombineRuleReporting {
    /// Reports `message` into the test running here; returns false when none can be found.
    static func report(_ message: String) -> Bool {
        let text = CombineRuleText.reported(message)
        if let current = FailureReporter.current {
            current.report(text)
            return true
        }
        #if canImport(Testing)
        if let test = Test.current {
            FailureReporter.swiftTesting.report(
                ExpectationFailure(message: text, location: SourceCodeLocation(test.sourceLocation)))
            return true
        }
        #endif
        #if canImport(XCTest)
        if let testCase = XCTestCaseObserver.runningTestCase {
            testCase.reporter.report(text)
            return true
        }
        #endif
        return false
    }
}

/// CadenceTesting's load-time setup: installs `CombineRuleReporting` as the handler of broken Combine rules and,
/// where XCTest is, starts following XCTest's test cases, so that neither depends on whether an `expect` ran first.
///
/// The constructor of the C module `CadenceTestingLoad` calls it when the image that links CadenceTesting is loaded,
/// before `main` and before any test; nothing else calls it.
@_cdecl("cadence_testing_did_load")
func cadenceTestingDidLoad() {
    CombineRuleViolation.handler = { message in CombineRuleReporting.report(message) }
    #if canImport(XCTest)
    XCTestCaseObserver.register()
    #endif
}
