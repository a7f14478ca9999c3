#if canImport(XCTest)
import XCTest

/// An `XCTestExpectation` fulfilled when a publisher fails — optionally with an error that satisfies a condition.
///
/// It fails fast: when the publisher finishes instead, or fails with another error, it reports why and fulfils
/// itself, so the wait returns at once:
///
/// ```swift
/// let offline = PublisherFailureExpectation(client.fetch(), expectedError: .offline)
/// wait(for: [offline], timeout: 1)
/// ```
///
/// ```text
/// PublisherFailureExpectation() failed: the publisher finished after sending [1, 2] instead of failing.
/// ```
///
/// A publisher that sends anything after it failed breaks the subscription contract: that over-fulfilment is
/// reported once, as an ordinary failure naming the values seen.
public final class PublisherFailureExpectation<P: Publisher>: PublisherShimExpectation<P>, @unchecked Sendable {
    /// An expectation fulfilled when `publisher` fails, with any error.
    public convenience init(
        _ publisher: P,
        description: String? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.init(
            publisher, rule: Self.rule(nil), description: description, fileID: fileID, filePath: filePath,
            line: line, column: column)
    }

    /// An expectation fulfilled when `publisher` fails with an error equal to `expectedError`.
    public convenience init(
        _ publisher: P,
        expectedError: P.Failure,
        description: String? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) where P.Failure: Equatable {
        let rule = Self.rule((.equal(to: ValueText.describe(expectedError)), { $0 == expectedError }))
        self.init(
            publisher, rule: rule, description: description, fileID: fileID, filePath: filePath, line: line,
            column: column)
    }

    /// An expectation fulfilled when `publisher` fails with an error that satisfies `condition`.
    public convenience init(
        _ publisher: P,
        condition: @escaping (P.Failure) -> Bool,
        description: String? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.init(
            publisher, rule: Self.rule((.condition, condition)), description: description, fileID: fileID,
            filePath: filePath, line: line, column: column)
    }

    /// Failing fulfils the shim — given `wanted`, only with an error that meets its criterion (tested by its test);
    /// finishing rules it out.
    private static func rule(
        _ wanted: (criterion: ShimCriterion, test: (P.Failure) -> Bool)?
    ) -> ShimRule<P.Output, P.Failure> {
        ShimRule(call: ShimCall(kind: .failure, criterion: wanted?.criterion), fulfils: nil) { completion, _, values in
            guard case let .failure(error) = completion else {
                return .rulesOut(.finishedInsteadOfFailing(values: values))
            }
            guard let wanted, !wanted.test(error) else { return .fulfils }
            return .rulesOut(.errorUnmet(wanted.criterion, error: error, values: values))
        }
    }
}
#endif
