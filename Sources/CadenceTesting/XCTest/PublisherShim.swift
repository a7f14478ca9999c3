import CadenceSupport
#if canImport(XCTest)
import Foundation
import XCTest

/// What a publisher shim makes of its publisher's completion, given whether it is already fulfilled and the values
/// that came before.
enum ShimCompletionVerdict {
    /// The completion fulfils the expectation.
    case fulfils
    /// The completion rules the expectation out, for this reason (no leading call, no final full stop).
    case rulesOut(String)
    /// The completion changes nothing.
    case nothing
}

/// The rules of one publisher shim: which values fulfil it and what a completion means.
struct ShimRule<Output, Failure: Error> {
    /// The shim's call as failure messages show it: `PublisherValueExpectation(expectedValue: 3)`.
    var call: String
    /// Whether a value fulfils the shim; nil for shims only a completion fulfils.
    var fulfils: ((Output) -> Bool)?
    /// What a completion means, given whether the shim is already fulfilled and the values before it.
    var judge: (_ completion: Subscribers.Completion<Failure>, _ fulfilled: Bool, _ values: [Output])
        -> ShimCompletionVerdict
}

/// The subscriber behind the publisher shims: it requests every value, keeps what arrived, applies the shim's rule
/// and fulfils the shim at most `expectedFulfillmentCount` times.
///
/// - Each value the rule accepts fulfils the shim once, until it has been fulfilled `expectedFulfillmentCount` times;
///   an accepted value after that is an over-fulfilment, reported when the shim's `assertForOverFulfill` is true (a
///   test sets it; `XCTestExpectation` starts with it false) — never passed on to XCTest's `fulfill()`.
/// - A completion that rules the shim out reports a failure naming the values seen, then fulfils the shim as many
///   times as it still needs, so that `wait(for:timeout:)` returns at once instead of waiting out its timeout. An
///   inverted shim reports nothing.
/// - Anything the publisher sends after its completion breaks the subscription contract, and is reported once.
/// - What arrives while the shim is being created (a publisher that sends synchronously on subscription) is judged
///   at once, but a ruling-out is acted on at the first of: `isInverted` being set, the next turn of the main queue,
///   or ``settle()`` — so that `isInverted = true`, written on the line after the shim, still counts.
final class PublisherShim<Output, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    // `state` (a Locked) guards every mutable property; the lets are immutable.
    struct State {
        var subscription: (any Subscription)?
        var values: [Output] = []
        var completion: Subscribers.Completion<Failure>?
        /// How many times the shim has fulfilled its expectation so far.
        var fulfilments = 0
        /// Whether the shim is resolved: fulfilled `expectedFulfillmentCount` times, or ruled out.
        var fulfilled = false
        var reportedOverFulfilment = false
        var creating = true
        /// A ruling-out found while the shim was being created, not acted on yet.
        var pendingRuling: String?
        weak var expectation: XCTestExpectation?
    }

    let rule: ShimRule<Output, Failure>
    let reporter: FailureReporter
    let location: SourceCodeLocation
    let state = Locked(State())

    init(rule: ShimRule<Output, Failure>, location: SourceCodeLocation) {
        self.rule = rule
        reporter = FailureReporter.resolved
        self.location = location
    }

    var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }

    /// Subscribes `self` to `publisher` for `expectation`, then acts on a ruling-out found meanwhile on the main
    /// queue's next turn.
    func start<P: Publisher>(_ publisher: P, for expectation: XCTestExpectation)
    where P.Output == Output, P.Failure == Failure {
        state.withLock { $0.expectation = expectation }
        publisher.subscribe(self)
        let pending = state.withLock { state -> Bool in
            state.creating = false
            return state.pendingRuling != nil
        }
        if pending {
            DispatchQueue.main.async { [self] in settle() }
        }
    }

    /// Acts on a ruling-out found while the shim was being created, if it has not been acted on yet.
    func settle() {
        guard let reason = state.withLock({ state -> String? in
            defer { state.pendingRuling = nil }
            return state.pendingRuling
        }) else { return }
        ruleOut(reason)
    }

    /// Drops a ruling-out found while the shim was being created: the shim was inverted after it.
    func dropPendingRuling() {
        state.withLock { $0.pendingRuling = nil }
    }

    /// The values received so far.
    var values: [Output] { state.withLock { $0.values } }

    /// What an unresolved shim has received so far, for XCTest's timeout message: `" (received [1, 2] so far)"`, or
    /// `" (received no value so far)"`; nothing once the shim is resolved.
    var progressNote: String {
        let (fulfilled, values) = state.withLock { ($0.fulfilled, $0.values) }
        if fulfilled { return "" }
        return values.isEmpty ? " (received no value so far)" : " (received \(ShimText.list(values)) so far)"
    }

    // MARK: Subscriber

    func receive(subscription: any Subscription) {
        let accepted = state.withLock { state -> Bool in
            guard state.subscription == nil, state.completion == nil else { return false }
            state.subscription = subscription
            return true
        }
        if accepted {
            subscription.request(.unlimited)
        } else {
            subscription.cancel()
        }
    }

    func receive(_ input: Output) -> Subscribers.Demand {
        let (completion, values) = state.withLock { state in
            state.values.append(input)
            return (state.completion, state.values)
        }
        if let completion {
            reportContractBreak(ValueText.describe(input), after: completion, values: values.dropLast())
            return .none
        }
        guard let fulfils = rule.fulfils, fulfils(input) else { return .none }
        let expectation = state.withLock { $0.expectation }
        let wanted = Self.wantedFulfilments(of: expectation)
        let counts = state.withLock { state -> Bool? in
            if !state.fulfilled {
                state.fulfilments += 1
                if state.fulfilments >= wanted { state.fulfilled = true }
                return true
            }
            if state.reportedOverFulfilment { return nil }
            return false
        }
        guard let counts else { return .none }
        if counts {
            fulfil()
        } else if let expectation, expectation.assertForOverFulfill {
            let reported = state.withLock { state -> Bool in
                defer { state.reportedOverFulfilment = true }
                return !state.reportedOverFulfilment
            }
            if reported {
                let times = wanted == 1 ? "once" : "\(wanted) times"
                let already = wanted == 1 ? "fulfilled" : "fulfilled \(wanted) times, its expectedFulfillmentCount"
                report(
                    "\(rule.call) was fulfilled more than \(times): \(ValueText.describe(input)) arrived after the "
                        + "expectation had already been \(already) (received \(ShimText.list(values))). Set "
                        + "assertForOverFulfill to false to allow it."
                )
            }
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let (earlier, fulfilled, fulfilments, values) = state.withLock { state in
            let earlier = state.completion
            if earlier == nil { state.completion = completion }
            state.subscription = nil
            return (earlier, state.fulfilled, state.fulfilments, state.values)
        }
        if let earlier {
            reportContractBreak(ShimText.completion(completion), after: earlier, values: values[...])
            return
        }
        switch rule.judge(completion, fulfilled, values) {
        case .nothing:
            break
        case .fulfils:
            let wanted = Self.wantedFulfilments(of: state.withLock { $0.expectation })
            let counts = state.withLock { state -> Bool in
                guard !state.fulfilled else { return false }
                state.fulfilments += 1
                if state.fulfilments >= wanted { state.fulfilled = true }
                return true
            }
            if counts { fulfil() }
        case var .rulesOut(reason):
            if fulfilments > 0 {
                // Fulfilled some of the times it expects, but not all: the rule's reason ("without a value …")
                // would be wrong.
                let wanted = Self.wantedFulfilments(of: state.withLock { $0.expectation })
                reason = "the publisher \(ShimText.ended(completion)) \(ShimText.sent(values)), which fulfilled it "
                    + "\(fulfilments) of the \(wanted) times it expects (expectedFulfillmentCount)"
            }
            let deferred = state.withLock { state -> Bool in
                guard state.creating else { return false }
                state.pendingRuling = reason
                return true
            }
            if !deferred { ruleOut(reason) }
        }
    }

    // MARK: Cancellable

    func cancel() {
        let subscription = state.withLock { state in
            defer { state.subscription = nil }
            return state.subscription
        }
        subscription?.cancel()
    }

    // MARK: Acting

    private func fulfil() {
        state.withLock { $0.expectation }?.fulfill()
    }

    /// How many times `expectation` must be fulfilled: its `expectedFulfillmentCount`, at least 1.
    private static func wantedFulfilments(of expectation: XCTestExpectation?) -> Int {
        max(expectation?.expectedFulfillmentCount ?? 1, 1)
    }

    /// Reports `reason` and fulfils the shim as many times as it still needs, so that its wait ends now — unless the
    /// shim is inverted, for which a ruled-out expectation is the success it waits for.
    private func ruleOut(_ reason: String) {
        guard let expectation = state.withLock({ $0.expectation }), !expectation.isInverted else { return }
        let wanted = Self.wantedFulfilments(of: expectation)
        let remaining = state.withLock { state -> Int in
            guard !state.fulfilled else { return 0 }
            defer {
                state.fulfilled = true
                state.fulfilments = max(state.fulfilments, wanted)
            }
            return max(wanted - state.fulfilments, 1)
        }
        guard remaining > 0 else { return }
        report("\(rule.call) failed: \(reason).")
        for _ in 0..<remaining { expectation.fulfill() }
    }

    private func reportContractBreak(
        _ event: String, after completion: Subscribers.Completion<Failure>, values: ArraySlice<Output>
    ) {
        let first = state.withLock { state -> Bool in
            defer { state.reportedOverFulfilment = true }
            return !state.reportedOverFulfilment
        }
        guard first else { return }
        report(
            "\(rule.call) was over-fulfilled: the publisher sent \(event) after it had \(ShimText.ended(completion)), "
                + "which breaks the "
                + "subscription contract (values before: \(ShimText.list(Array(values))))."
        )
    }

    private func report(_ message: String) {
        reporter.report(ExpectationFailure(message: message, location: location))
    }
}

/// The pieces of the shims' messages.
enum ShimText {
    /// `[1, 2]`, each value as failure messages print values.
    static func list<Value>(_ values: [Value]) -> String {
        "[" + values.map { ValueText.describe($0) }.joined(separator: ", ") + "]"
    }

    /// `"after sending [1, 2]"`, or `"without sending a value"`.
    static func sent<Value>(_ values: [Value]) -> String {
        values.isEmpty ? "without sending a value" : "after sending \(list(values))"
    }

    /// `"finished"` or `"failed with Outage"`.
    static func ended<Failure>(_ completion: Subscribers.Completion<Failure>) -> String {
        switch completion {
        case .finished: "finished"
        case let .failure(error): "failed with \(ValueText.describe(error))"
        }
    }

    /// `"finished"` or `"failure(Outage)"`.
    static func completion<Failure>(_ completion: Subscribers.Completion<Failure>) -> String {
        EventText.completion(completion)
    }
}
#endif
