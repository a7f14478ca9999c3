// A broken Combine rule inside an XCTest test case fails that case, captured here instead of failing it.
#if canImport(XCTest) && DEBUG
@testable import CadenceTesting
import XCTest

/// Asks for nothing, which `Just` does not allow.
private final class AsksForNothing: Subscriber, @unchecked Sendable { // used on one thread
    let combineIdentifier = CombineIdentifier()
    func receive(subscription: any Subscription) { subscription.request(.none) }
    func receive(_ input: Int) -> Subscribers.Demand { .none }
    func receive(completion: Subscribers.Completion<Never>) {}
}

final class CombineRuleReportingXCTests: FailureCapturingTestCase {
    func testABrokenRuleFailsTheRunningTestCaseAndTheCaseGoesOn() {
        // Follow XCTest's test cases from this one on, as the first `expect` of a bundle does.
        XCTAssertNotNil(XCTestCaseObserver.scopeForNewExpectation())
        let failures = capturingXCTestFailures {
            Just(7).subscribe(AsksForNothing())
        }
        XCTAssertEqual(
            failures.map(\.message),
            [
                "failed - Just: request(_:) was called with max(0); a subscriber must request a positive demand. "
                    + "Apple's Combine stops the process here; inside this test Cadence reported it and ignored the call."
            ])
    }
}
#endif
