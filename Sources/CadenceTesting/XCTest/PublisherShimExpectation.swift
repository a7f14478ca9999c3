import CadenceSupport

#if canImport(XCTest)
import XCTest

/// What the publisher shims — ``PublisherValueExpectation``, ``PublisherFinishedExpectation`` and
/// ``PublisherFailureExpectation`` — have in common: an `XCTestExpectation` that subscribes to a publisher at once,
/// keeps the values it sends, and is fulfilled, or fails fast, by the rule of the shim.
///
/// Make one of the three shims; this class cannot be created or subclassed outside Cadence.
public class PublisherShimExpectation<P: Publisher>: XCTestExpectation, @unchecked Sendable {
    // The shim's state is guarded by `shim`'s lock; the let never changes.
    let shim: PublisherShim<P.Output, P.Failure>

    /// Subscribes to `publisher` under `rule`; the expectation's description is `description`, else the rule's call.
    init(
        _ publisher: P,
        rule: ShimRule<P.Output, P.Failure>,
        description: String?,
        fileID: StaticString,
        filePath: StaticString,
        line: UInt,
        column: UInt
    ) {
        let location = SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        shim = PublisherShim(rule: rule, location: location)
        super.init(description: description ?? ShimMessages.call(rule.call))
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

    #if !canImport(ObjectiveC)
    // Linux only: Apple's rules for `fulfill()`, when enforced (see `AppleFulfilmentRules`).
    let appleRules = Locked(AppleFulfilmentRules())

    /// Fulfils the expectation (on Linux, unless the call breaks Apple's rules and `CADENCE_APPLE_XCTEST_RULES` is 1).
    public override func fulfill(_ file: StaticString = #file, line: Int = #line) {
        if mayFulfill(file, line) { super.fulfill(file, line: line) }
    }
    #endif
}

#if !canImport(ObjectiveC)
extension PublisherShimExpectation: AppleRuledExpectation {}
#endif

extension PublisherShimExpectation: VirtualTimeWaitable {
    func settleForWait() { shim.settle() }
    func closeAfterWait() { shim.closeAfterWait() }
    func watchAfterWait() { shim.watchAfterWait() }
    var lateWatch: LateWatch { shim.lateWatch }
}
#endif
