#if canImport(XCTest) && !canImport(ObjectiveC)
import CadenceSupport
import Foundation
import XCTest

/// Linux only: the rules Apple's XCTest applies to `fulfill()` and swift-corelibs-xctest does not enforce.
///
/// On Apple platforms a `fulfill()` after a wait on the expectation has ended, or one more than
/// `expectedFulfillmentCount` while `assertForOverFulfill` is set, is an "API violation": an exception that ends the
/// test run. Cadence's shims never make such a call — a wait on virtual time closes the shims it leaves unfulfilled,
/// and an over-fulfilment is reported, not passed on. Linux's XCTest would let a regression through silently, so when
/// the environment variable `CADENCE_APPLE_XCTEST_RULES` is `1` (`.ci/run` runs the XCTest tests so), each shim
/// checks its own `fulfill()` calls against these rules and fails the running test with Apple's message instead of
/// passing such a call on.
///
/// The wait that counts is a wait on virtual time (`wait(for:advancing:)`, `fulfillment(of:advancing:)`): XCTest's
/// own waits do not tell anyone when they end.
struct AppleFulfilmentRules {
    /// Whether the rules are applied: the environment variable `CADENCE_APPLE_XCTEST_RULES` is `1`, or a test forces
    /// them with ``isForced``.
    static var areEnforced: Bool { isForced ?? fromEnvironment }

    /// Set by a test to apply the rules, or not, whatever the environment says.
    @TaskLocal static var isForced: Bool?

    private static let fromEnvironment = ProcessInfo.processInfo.environment["CADENCE_APPLE_XCTEST_RULES"] == "1"

    private var fulfilments = 0
    private var waitEnded = false

    /// Records that a wait on the expectation has returned.
    mutating func noteWaitEnded() {
        waitEnded = true
    }

    /// An API violation of Apple's XCTest.
    enum Violation: Equatable {
        case overFulfilled
        case fulfilledAfterWait

        /// Apple's message for the violation, on the expectation described by `description`.
        func message(for description: String) -> String {
            switch self {
            case .overFulfilled:
                "API violation - multiple calls made to -[XCTestExpectation fulfill] for \(description)."
            case .fulfilledAfterWait:
                "API violation - called -[XCTestExpectation fulfill] after the wait context has ended for "
                    + "\(description)."
            }
        }
    }

    /// The API violation that one more `fulfill()` call would be on Apple platforms, or nil: then the call is allowed,
    /// and counted.
    mutating func violation(expected: Int, assertForOverFulfill: Bool) -> Violation? {
        if fulfilments >= max(expected, 1) {
            return assertForOverFulfill ? .overFulfilled : nil
        }
        if waitEnded { return .fulfilledAfterWait }
        fulfilments += 1
        return nil
    }
}

/// An expectation of Cadence's that checks its `fulfill()` calls against ``AppleFulfilmentRules`` (Linux only).
protocol AppleRuledExpectation: XCTestExpectation {
    var appleRules: Locked<AppleFulfilmentRules> { get }
}

extension AppleRuledExpectation {
    /// Whether a `fulfill()` call may go on to XCTest: true unless it breaks the rules (which count every call) and
    /// they are enforced, in which case it has failed the running test, at `file` and `line`, with Apple's message.
    func mayFulfill(_ file: StaticString, _ line: Int) -> Bool {
        let (expected, assert) = (expectedFulfillmentCount, assertForOverFulfill)
        let violation = appleRules.withLock { $0.violation(expected: expected, assertForOverFulfill: assert) }
        guard let violation, AppleFulfilmentRules.areEnforced else { return true }
        XCTFail(violation.message(for: expectationDescription), file: file, line: UInt(line))
        return false
    }
}
#endif
