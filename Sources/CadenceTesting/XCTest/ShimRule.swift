#if canImport(XCTest)
import XCTest

/// The rules of one publisher shim: its call, which values fulfil it and what a completion means.
struct ShimRule<Output, Failure: Error> {
    /// The shim's call, as its description and failure messages show it.
    var call: ShimCall
    /// Whether a value fulfils the shim; nil for shims only a completion fulfils.
    var fulfils: ((Output) -> Bool)?
    /// What a completion means, given whether the shim is already fulfilled and the values before it.
    var judge:
        (_ completion: Subscribers.Completion<Failure>, _ fulfilled: Bool, _ values: [Output])
            -> ShimCompletionVerdict<Output, Failure>
}

/// What a publisher shim makes of its publisher's completion, given whether it is already fulfilled and the values
/// that came before.
enum ShimCompletionVerdict<Output, Failure: Error> {
    /// The completion fulfils the expectation.
    case fulfils
    /// The completion rules the expectation out, for this reason.
    case rulesOut(ShimRuling<Output, Failure>)
    /// The completion changes nothing.
    case nothing
}
#endif
