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
public final class PublisherFinishedExpectation<P: Publisher>: XCTestExpectation, @unchecked Sendable {
    // The shim's state is guarded by `shim`'s lock; the let never changes.
    let shim: PublisherShim<P.Output, P.Failure>

    /// An expectation fulfilled when `publisher` finishes, whatever it sent before.
    public convenience init(
        _ publisher: P,
        description: String? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let location = SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        self.init(publisher, call: "PublisherFinishedExpectation()", wanted: nil, description: description,
                  location: location)
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
        let location = SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let expected = ValueText.describe(expectedValue)
        self.init(publisher, call: "PublisherFinishedExpectation(expectedValue: \(expected))",
                  wanted: ("equal to \(expected)", "is not equal to \(expected)", { $0 == expectedValue }),
                  description: description, location: location)
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
        let location = SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        self.init(publisher, call: "PublisherFinishedExpectation(condition:)",
                  wanted: ("satisfying the condition", "does not satisfy the condition", condition),
                  description: description, location: location)
    }

    private init(
        _ publisher: P,
        call: String,
        wanted: (phrase: String, refusal: String, test: (P.Output) -> Bool)?,
        description: String?,
        location: SourceCodeLocation
    ) {
        shim = PublisherShim(rule: ShimRule(call: call, fulfils: nil) { completion, _, values in
            guard case .finished = completion else {
                return .rulesOut("the publisher \(ShimText.ended(completion)) \(ShimText.sent(values))")
            }
            guard let wanted else { return .fulfils }
            guard let last = values.last else {
                return .rulesOut(
                    "the publisher finished without sending a value; expected a last value \(wanted.phrase)"
                )
            }
            if wanted.test(last) { return .fulfils }
            return .rulesOut(
                "the publisher finished \(ShimText.sent(values)); the last value, \(ValueText.describe(last)), "
                    + wanted.refusal
            )
        }, location: location)
        super.init(description: description ?? call)
        shim.start(publisher, for: self)
    }

    deinit {
        shim.cancel()
    }

    /// Whether the wait treats this expectation as one that must not be fulfilled.
    public override var isInverted: Bool {
        didSet {
            if isInverted { shim.dropPendingRuling() } else { shim.settle() }
        }
    }

    /// What the expectation is for — by default its call, `Publisher…Expectation(expectedValue: 3)` — followed,
    /// while it is unfulfilled, by the values received so far, so that XCTest's timeout message names them.
    public override var expectationDescription: String {
        get { super.expectationDescription + shim.progressNote }
        set { super.expectationDescription = newValue }
    }

    /// Every value the publisher has sent so far.
    public var values: [P.Output] { shim.values }
}

extension PublisherFinishedExpectation: VirtualTimeWaitable {}
#endif
