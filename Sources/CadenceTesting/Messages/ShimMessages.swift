#if canImport(XCTest)
import XCTest

/// Every sentence the publisher shims write: their calls, their failures and their progress notes.
enum ShimMessages {
    /// `PublisherValueExpectation(expectedValue: 3)`, `PublisherFailureExpectation(condition:)`,
    /// `PublisherFinishedExpectation()`.
    static func call(_ call: ShimCall) -> String {
        let type =
            switch call.kind {
            case .value: "PublisherValueExpectation"
            case .finished: "PublisherFinishedExpectation"
            case .failure: "PublisherFailureExpectation"
            }
        let argument =
            switch call.criterion {
            case nil: ""
            case let .equal(expected): "\(call.kind == .failure ? "expectedError" : "expectedValue"): \(expected)"
            case .condition: "condition:"
            }
        return "\(type)(\(argument))"
    }

    /// The whole failure message, with the shim's call in front.
    static func failure<Output, Failure>(_ failure: ShimFailure<Output, Failure>, of call: ShimCall) -> String {
        let call = Self.call(call)
        switch failure {
        case let .ruledOut(ruling):
            return "\(call) failed: \(reason(ruling))."
        case let .overFulfilled(value, wanted, values):
            let times = wanted == 1 ? "once" : "\(wanted) times"
            let already = wanted == 1 ? "fulfilled" : "fulfilled \(wanted) times, its expectedFulfillmentCount"
            return "\(call) was fulfilled more than \(times): \(ValueText.describe(value)) arrived after the "
                + "expectation had already been \(already) (received \(list(values))). Set "
                + "assertForOverFulfill to false to allow it."
        case let .contractBroken(event, completion, values):
            let sent =
                switch event {
                case let .value(value): ValueText.describe(value)
                case let .completion(completion): EventText.completion(completion)
                }
            return "\(call) was over-fulfilled: the publisher sent \(sent) after it had \(ended(completion)), "
                + "which breaks the subscription contract (values before: \(list(values)))."
        }
    }

    /// What an unresolved shim has received so far, for XCTest's timeout message: `" (received [1, 2] so far)"`, or
    /// `" (received no value so far)"`.
    static func progressNote<Output>(received values: [Output]) -> String {
        values.isEmpty ? " (received no value so far)" : " (received \(list(values)) so far)"
    }

    /// Why a completion rules a shim out, with no leading call and no final full stop.
    private static func reason<Output, Failure>(_ ruling: ShimRuling<Output, Failure>) -> String {
        switch ruling {
        case let .noValueMet(criterion, completion, values):
            let ended = "the publisher \(ended(completion))"
            if values.isEmpty { return "\(ended) without sending a value" }
            return "\(ended) after sending \(list(values)) without a value \(wanted(criterion))"
        case let .failedInsteadOfFinishing(completion, values):
            return "the publisher \(ended(completion)) \(sent(values))"
        case let .finishedWithoutLastValue(criterion):
            return "the publisher finished without sending a value; expected a last value \(wanted(criterion))"
        case let .lastValueUnmet(criterion, last, values):
            return "the publisher finished \(sent(values)); the last value, \(ValueText.describe(last)), "
                + refusal(criterion)
        case let .finishedInsteadOfFailing(values):
            return "the publisher finished \(sent(values)) instead of failing"
        case let .errorUnmet(criterion, error, values):
            return "the publisher failed with \(ValueText.describe(error)) \(sent(values)); the error "
                + refusal(criterion)
        case let .partlyFulfilled(completion, values, fulfilments, wanted):
            return "the publisher \(ended(completion)) \(sent(values)), which fulfilled it \(fulfilments) of the "
                + "\(wanted) times it expects (expectedFulfillmentCount)"
        }
    }

    /// `"equal to 3"` or `"satisfying the condition"`.
    private static func wanted(_ criterion: ShimCriterion) -> String {
        switch criterion {
        case let .equal(expected): "equal to \(expected)"
        case .condition: "satisfying the condition"
        }
    }

    /// `"is not equal to 3"` or `"does not satisfy the condition"`.
    private static func refusal(_ criterion: ShimCriterion) -> String {
        switch criterion {
        case let .equal(expected): "is not equal to \(expected)"
        case .condition: "does not satisfy the condition"
        }
    }

    /// `[1, 2]`, each value as failure messages print values.
    private static func list<Value>(_ values: [Value]) -> String {
        "[" + values.map { ValueText.describe($0) }.joined(separator: ", ") + "]"
    }

    /// `"after sending [1, 2]"`, or `"without sending a value"`.
    private static func sent<Value>(_ values: [Value]) -> String {
        values.isEmpty ? "without sending a value" : "after sending \(list(values))"
    }

    /// `"finished"` or `"failed with Outage"`.
    private static func ended<Failure>(_ completion: Subscribers.Completion<Failure>) -> String {
        switch completion {
        case .finished: "finished"
        case let .failure(error): "failed with \(ValueText.describe(error))"
        }
    }
}
#endif
