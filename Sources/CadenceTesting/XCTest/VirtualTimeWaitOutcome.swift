import CadenceSupport

#if canImport(XCTest)
import XCTest

/// How a wait on virtual time ended, and the failure it reports at the line that called it.
///
/// `wait(for:advancing:by:)` and `fulfillment(of:advancing:by:)` wait with an `XCTWaiter`, which fails nothing by
/// itself, and report what went wrong through ``FailureReporter`` at their caller's file and line — on Apple
/// platforms too, where XCTest's `wait(for:timeout:)` takes no location and would report a timeout inside Cadence.
enum VirtualTimeWaitOutcome: Equatable {
    /// Every expectation was fulfilled (and no inverted one), in order if asked.
    case completed
    /// These expectations, by description, were not fulfilled.
    case unfulfilled([String])
    /// These inverted expectations, by description, were fulfilled.
    case invertedFulfilled([String])
    /// The expectations were fulfilled, but not in the order given (`enforceOrder: true`).
    case outOfOrder
    /// XCTest interrupted the wait (a nested waiter timed out).
    case interrupted

    /// The outcome of a wait on `expectations` that ended with `result`, having seen `fulfilled` fulfilled.
    init(_ result: XCTWaiter.Result, expectations: [XCTestExpectation], fulfilled: [XCTestExpectation]) {
        func wasFulfilled(_ expectation: XCTestExpectation) -> Bool {
            fulfilled.contains { $0 === expectation }
        }
        switch result {
        case .completed:
            self = .completed
        case .timedOut:
            self = .unfulfilled(
                expectations.filter { !$0.isInverted && !wasFulfilled($0) }.map(\.expectationDescription)
            )
        case .invertedFulfillment:
            self = .invertedFulfilled(
                expectations.filter { $0.isInverted && wasFulfilled($0) }.map(\.expectationDescription)
            )
        case .incorrectOrder:
            self = .outOfOrder
        default:
            self = .interrupted
        }
    }

    /// The failure message, for a wait made by `call` that returned at virtual `tick`; nil when it completed.
    ///
    /// ```text
    /// wait(for:advancing:) failed: at tick 499, 1 expectation was not fulfilled: "PublisherValueExpectation(expectedValue: 3) (received [1] so far)"; it arrived at tick 500, 1 tick late.
    /// ```
    ///
    /// `lookahead` is what the wait learned by running the clock on past its budget: an unfulfilled expectation's
    /// message says when it would have been fulfilled, as the DSL's budget steps do.
    func message(call: String, tick: Int64, lookahead: WaitLookahead? = nil) -> String? {
        let start = "\(call) failed: at tick \(tick), "
        switch self {
        case .completed:
            return nil
        case let .unfulfilled(descriptions):
            let count = descriptions.count == 1 ? "1 expectation was" : "\(descriptions.count) expectations were"
            let late = lookahead.flatMap(XCTestText.lateArrivals).map { "; " + $0 } ?? ""
            return start + "\(count) not fulfilled: \(Self.list(descriptions))\(late)."
        case let .invertedFulfilled(descriptions):
            let count =
                descriptions.count == 1
                ? "1 inverted expectation was" : "\(descriptions.count) inverted expectations were"
            return start + "\(count) fulfilled: \(Self.list(descriptions))."
        case .outOfOrder:
            return start + "the expectations were not fulfilled in the order given (enforceOrder: true)."
        case .interrupted:
            return start + "XCTest interrupted the wait."
        }
    }

    private static func list(_ descriptions: [String]) -> String {
        descriptions.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
#endif
