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
public final class PublisherFailureExpectation<P: Publisher>: XCTestExpectation, @unchecked Sendable {
    // The shim's state is guarded by `shim`'s lock; the let never changes.
    let shim: PublisherShim<P.Output, P.Failure>

    /// An expectation fulfilled when `publisher` fails, with any error.
    public convenience init(
        _ publisher: P,
        description: String? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let location = SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        self.init(publisher, call: "PublisherFailureExpectation()", wanted: nil, description: description,
                  location: location)
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
        let location = SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let expected = ValueText.describe(expectedError)
        self.init(publisher, call: "PublisherFailureExpectation(expectedError: \(expected))",
                  wanted: ("is not equal to \(expected)", { $0 == expectedError }), description: description,
                  location: location)
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
        let location = SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        self.init(publisher, call: "PublisherFailureExpectation(condition:)",
                  wanted: ("does not satisfy the condition", condition), description: description,
                  location: location)
    }

    private init(
        _ publisher: P,
        call: String,
        wanted: (refusal: String, test: (P.Failure) -> Bool)?,
        description: String?,
        location: SourceCodeLocation
    ) {
        shim = PublisherShim(rule: ShimRule(call: call, fulfils: nil) { completion, _, values in
            guard case let .failure(error) = completion else {
                return .rulesOut("the publisher finished \(ShimText.sent(values)) instead of failing")
            }
            guard let wanted, !wanted.test(error) else { return .fulfils }
            return .rulesOut(
                "the publisher failed with \(ValueText.describe(error)) \(ShimText.sent(values)); the error "
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

extension PublisherFailureExpectation: VirtualTimeWaitable {}
#endif
