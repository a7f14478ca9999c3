#if canImport(XCTest)
import XCTest

// What the publisher shims report, as data. The sentences are written in one place, `ShimMessages`.

/// A publisher shim's call, as its description and failure messages show it:
/// `PublisherValueExpectation(expectedValue: 3)`.
struct ShimCall {
    /// Which shim it is.
    enum Kind {
        case value
        case finished
        case failure
    }

    var kind: Kind
    /// What the shim asks of the value (or, for a failure shim, the error); nil when it asks nothing.
    var criterion: ShimCriterion?
}

/// What a shim asks of a value or an error.
enum ShimCriterion {
    /// Equal to a value, printed as failure messages print values.
    case equal(to: String)
    /// Satisfying the condition the test passed.
    case condition
}

/// Why a completion rules a publisher shim out.
enum ShimRuling<Output, Failure: Error> {
    /// The publisher completed, having sent `values`, none of which met `criterion` (a value shim).
    case noValueMet(ShimCriterion, completion: Subscribers.Completion<Failure>, values: [Output])
    /// The publisher failed instead of finishing, having sent `values` (a finished shim).
    case failedInsteadOfFinishing(Subscribers.Completion<Failure>, values: [Output])
    /// The publisher finished without a value, where the last value had to meet `criterion` (a finished shim).
    case finishedWithoutLastValue(ShimCriterion)
    /// The publisher finished after `values`, whose last does not meet `criterion` (a finished shim).
    case lastValueUnmet(ShimCriterion, last: Output, values: [Output])
    /// The publisher finished instead of failing, having sent `values` (a failure shim).
    case finishedInsteadOfFailing(values: [Output])
    /// The publisher failed with `error`, which does not meet `criterion` (a failure shim).
    case errorUnmet(ShimCriterion, error: Failure, values: [Output])
    /// The publisher completed after fulfilling the shim only `fulfilments` of the `wanted` times it expects.
    case partlyFulfilled(
        completion: Subscribers.Completion<Failure>, values: [Output], fulfilments: Int, wanted: Int
    )
}

/// Something a publisher sent after its completion.
enum ShimLateEvent<Output, Failure: Error> {
    case value(Output)
    case completion(Subscribers.Completion<Failure>)
}

/// A problem a publisher shim reports.
enum ShimFailure<Output, Failure: Error> {
    /// A completion ruled the shim out.
    case ruledOut(ShimRuling<Output, Failure>)
    /// `value` fulfilled the shim again after it had been fulfilled `wanted` times; `values` is all it received.
    case overFulfilled(by: Output, wanted: Int, values: [Output])
    /// The publisher sent `event` after `completion`, having sent `valuesBefore` before it.
    case contractBroken(ShimLateEvent<Output, Failure>, after: Subscribers.Completion<Failure>, valuesBefore: [Output])
}
#endif
