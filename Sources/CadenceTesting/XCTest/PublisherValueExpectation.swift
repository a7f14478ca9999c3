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
public final class PublisherValueExpectation<P: Publisher>: XCTestExpectation, @unchecked Sendable {
    // The shim's state is guarded by `shim`'s lock; the let never changes.
    let shim: PublisherShim<P.Output, P.Failure>

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
        let location = SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        self.init(publisher, call: "PublisherValueExpectation(condition:)", wanted: "satisfying the condition",
                  condition: condition, description: description, location: location)
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
        let location = SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let expected = ValueText.describe(expectedValue)
        self.init(publisher, call: "PublisherValueExpectation(expectedValue: \(expected))",
                  wanted: "equal to \(expected)", condition: { $0 == expectedValue }, description: description,
                  location: location)
    }

    private init(
        _ publisher: P, call: String, wanted: String, condition: @escaping (P.Output) -> Bool, description: String?,
        location: SourceCodeLocation
    ) {
        shim = PublisherShim(rule: ShimRule(call: call, fulfils: condition) { completion, fulfilled, values in
            if fulfilled { return .nothing }
            let ended = "the publisher \(ShimText.ended(completion))"
            if values.isEmpty { return .rulesOut("\(ended) without sending a value") }
            return .rulesOut("\(ended) after sending \(ShimText.list(values)) without a value \(wanted)")
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

extension PublisherValueExpectation: VirtualTimeWaitable {}
#endif
