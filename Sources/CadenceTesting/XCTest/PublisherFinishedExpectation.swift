#if canImport(XCTest)
import XCTest

/// An `XCTestExpectation` fulfilled when a publisher finishes — optionally after a last value that satisfies a
/// condition.
///
/// It fails fast: when the publisher fails, or finishes after the wrong last value, it reports why and fulfils
/// itself, so the wait returns at once:
///
/// ```swift
/// let saved = PublisherFinishedExpectation(store.save(draft), expectedValue: .saved)
/// wait(for: [saved], timeout: 1)
/// ```
///
/// ```text
/// PublisherFinishedExpectation(expectedValue: 3) failed: the publisher finished after sending [1, 2]; the last value, 2, is not equal to 3.
/// ```
///
/// A publisher that sends anything after it finished breaks the subscription contract: that over-fulfilment is
/// reported once, as an ordinary failure naming the values seen.
public final class PublisherFinishedExpectation<P: Publisher>: PublisherShimExpectation<P>, @unchecked Sendable {
    /// An expectation fulfilled when `publisher` finishes, whatever it sent before.
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

    /// An expectation fulfilled when `publisher` finishes and the last value it sent before is equal to
    /// `expectedValue`.
    public convenience init(
        _ publisher: P,
        expectedValue: P.Output,
        description: String? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) where P.Output: Equatable {
        let rule = Self.rule((.equal(to: ValueText.describe(expectedValue)), { $0 == expectedValue }))
        self.init(
            publisher, rule: rule, description: description, fileID: fileID, filePath: filePath, line: line,
            column: column)
    }

    /// An expectation fulfilled when `publisher` finishes and the last value it sent before satisfies `condition`.
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
            publisher, rule: Self.rule((.condition, condition)), description: description, fileID: fileID,
            filePath: filePath, line: line, column: column)
    }

    /// Finishing fulfils the shim — given `wanted`, only after a last value that meets its criterion (tested by its
    /// test); failing rules it out.
    private static func rule(
        _ wanted: (criterion: ShimCriterion, test: (P.Output) -> Bool)?
    ) -> ShimRule<P.Output, P.Failure> {
        ShimRule(call: ShimCall(kind: .finished, criterion: wanted?.criterion), fulfils: nil) { completion, _, values in
            guard case .finished = completion else {
                return .rulesOut(.failedInsteadOfFinishing(completion, values: values))
            }
            guard let wanted else { return .fulfils }
            guard let last = values.last else { return .rulesOut(.finishedWithoutLastValue(wanted.criterion)) }
            if wanted.test(last) { return .fulfils }
            return .rulesOut(.lastValueUnmet(wanted.criterion, last: last, values: values))
        }
    }
}
#endif
