#if canImport(XCTest)
import XCTest

/// An `XCTestExpectation` fulfilled when a publisher sends a value that satisfies a condition.
///
/// It subscribes at once and fails fast: when the publisher completes without such a value, it reports why — naming
/// the values it received — and fulfils itself, so the wait returns at once instead of timing out:
///
/// ```swift
/// let gotThree = PublisherValueExpectation(numbers, expectedValue: 3)
/// wait(for: [gotThree], timeout: 1)
/// ```
///
/// ```text
/// PublisherValueExpectation(expectedValue: 3) failed: the publisher finished after sending [1, 2] without a value equal to 3.
/// ```
///
/// Each value that satisfies the condition fulfils it once, up to `expectedFulfillmentCount` (1 unless you set it):
/// with `expectedFulfillmentCount = 2`, the wait ends at the second such value. One more is fine by default. Set
/// `assertForOverFulfill` to true to make it an over-fulfilment, reported as an ordinary failure naming the values
/// seen — never XCTest's "API violation" crash.
/// Setting `isInverted` right after creating the shim turns it into "no such value": then a publisher that completes
/// without one is the success, and nothing is reported.
///
/// To wait on virtual time, advance the clock and wait with no real delay: `wait(for:advancing:by:)`.
public final class PublisherValueExpectation<P: Publisher>: PublisherShimExpectation<P>, @unchecked Sendable {
    /// An expectation fulfilled when `publisher` sends a value for which `condition` is true.
    public convenience init(
        _ publisher: P,
        condition: @escaping (P.Output) -> Bool,
        description: String? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.init(
            publisher, rule: Self.rule(.condition, condition), description: description, fileID: fileID,
            filePath: filePath, line: line, column: column)
    }

    /// An expectation fulfilled when `publisher` sends a value equal to `expectedValue`.
    public convenience init(
        _ publisher: P,
        expectedValue: P.Output,
        description: String? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) where P.Output: Equatable {
        let rule = Self.rule(.equal(to: ValueText.describe(expectedValue))) { $0 == expectedValue }
        self.init(
            publisher, rule: rule, description: description, fileID: fileID, filePath: filePath, line: line,
            column: column)
    }

    /// Each value that meets `criterion` (tested by `test`) fulfils the shim; a completion before it had them all
    /// rules it out.
    private static func rule(
        _ criterion: ShimCriterion, _ test: @escaping (P.Output) -> Bool
    ) -> ShimRule<P.Output, P.Failure> {
        ShimRule(call: ShimCall(kind: .value, criterion: criterion), fulfils: test) { completion, fulfilled, values in
            if fulfilled { return .nothing }
            return .rulesOut(.noValueMet(criterion, completion: completion, values: values))
        }
    }
}
#endif
