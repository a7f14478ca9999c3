import CadenceSupport

#if canImport(XCTest)
import Foundation
import XCTest

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
/// - Once a wait on virtual time has returned with the shim unfulfilled, ``closeAfterWait()`` cancels the
///   subscription and the shim never calls `fulfill()` again (Apple's XCTest traps on a `fulfill()` after the wait).
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
        var pendingRuling: ShimRuling<Output, Failure>?
        /// Whether a wait returned with the shim unfulfilled: it then neither fulfils nor reports any more.
        var closed = false
        /// Whether the closed shim still observes, for a wait that runs the clock on past its budget: it then notes
        /// in `late` whether it would have been fulfilled.
        var watching = false
        var late = LateWatch.waiting
        weak var expectation: XCTestExpectation?

        /// Counts a fulfilment the watching shim does not make, and notes the arrival once it has as many as it
        /// wants.
        mutating func noteLateFulfilment(wanted: Int) {
            fulfilments += 1
            if fulfilments >= wanted, late == .waiting { late = .arrived }
        }
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
        guard
            let reason = state.withLock({ state -> ShimRuling<Output, Failure>? in
                defer { state.pendingRuling = nil }
                return state.closed ? nil : state.pendingRuling
            })
        else { return }
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
        return ShimMessages.progressNote(received: values)
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
            reportContractBreak(.value(input), after: completion, valuesBefore: Array(values.dropLast()))
            return .none
        }
        guard let fulfils = rule.fulfils, fulfils(input) else { return .none }
        let expectation = state.withLock { $0.expectation }
        let wanted = Self.wantedFulfilments(of: expectation)
        let counts = state.withLock { state -> Bool? in
            if state.watching {
                state.noteLateFulfilment(wanted: wanted)
                return nil
            }
            if state.closed { return nil }
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
            if reported { report(.overFulfilled(by: input, wanted: wanted, values: values)) }
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
            reportContractBreak(.completion(completion), after: earlier, valuesBefore: values)
            return
        }
        switch rule.judge(completion, fulfilled, values) {
        case .nothing:
            break
        case .fulfils:
            let wanted = Self.wantedFulfilments(of: state.withLock { $0.expectation })
            let counts = state.withLock { state -> Bool in
                if state.watching { state.noteLateFulfilment(wanted: wanted) }
                guard !state.fulfilled, !state.closed else { return false }
                state.fulfilments += 1
                if state.fulfilments >= wanted { state.fulfilled = true }
                return true
            }
            if counts { fulfil() }
        case var .rulesOut(reason):
            let watched = state.withLock { state -> Bool in
                if state.watching, state.late == .waiting { state.late = .ruledOut }
                return state.watching
            }
            if watched { return }
            if fulfilments > 0 {
                // Fulfilled some of the times it expects, but not all: the rule's reason ("without a value …")
                // would be wrong.
                let wanted = Self.wantedFulfilments(of: state.withLock { $0.expectation })
                reason = .partlyFulfilled(
                    completion: completion, values: values, fulfilments: fulfilments, wanted: wanted
                )
            }
            let deferred = state.withLock { state -> Bool in
                guard state.creating else { return false }
                state.pendingRuling = reason
                return true
            }
            if !deferred { ruleOut(reason) }
        }
    }

    /// Closes the shim if it is not fulfilled: cancels the subscription, and from now on fulfils nothing and reports
    /// nothing. A fulfilled shim stays open, to report an over-fulfilment.
    func closeAfterWait() {
        let subscription = state.withLock { state -> (any Subscription)? in
            guard !state.fulfilled else { return nil }
            state.closed = true
            state.watching = false
            state.pendingRuling = nil
            defer { state.subscription = nil }
            return state.subscription
        }
        subscription?.cancel()
    }

    /// Closes an unfulfilled shim as ``closeAfterWait()`` does — it fulfils and reports nothing from now on — but
    /// keeps its subscription, noting in ``lateWatch`` whether what it waited for comes, until `closeAfterWait()`.
    func watchAfterWait() {
        state.withLock { state in
            guard !state.fulfilled else { return }
            state.closed = true
            state.watching = true
            state.pendingRuling = nil
        }
    }

    /// What the shim saw since ``watchAfterWait()``.
    var lateWatch: LateWatch { state.withLock { $0.late } }

    /// Whether a wait returned with the shim unfulfilled.
    var isClosed: Bool { state.withLock { $0.closed } }

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
    private func ruleOut(_ reason: ShimRuling<Output, Failure>) {
        guard let expectation = state.withLock({ $0.expectation }), !expectation.isInverted else { return }
        let wanted = Self.wantedFulfilments(of: expectation)
        let remaining = state.withLock { state -> Int in
            guard !state.fulfilled, !state.closed else { return 0 }
            defer {
                state.fulfilled = true
                state.fulfilments = max(state.fulfilments, wanted)
            }
            return max(wanted - state.fulfilments, 1)
        }
        guard remaining > 0 else { return }
        report(.ruledOut(reason))
        for _ in 0..<remaining { expectation.fulfill() }
    }

    private func reportContractBreak(
        _ event: ShimLateEvent<Output, Failure>, after completion: Subscribers.Completion<Failure>,
        valuesBefore: [Output]
    ) {
        let first = state.withLock { state -> Bool in
            defer { state.reportedOverFulfilment = true }
            return !state.reportedOverFulfilment
        }
        guard first else { return }
        report(.contractBroken(event, after: completion, valuesBefore: valuesBefore))
    }

    /// Reports `failure`, its sentence written by `ShimMessages`.
    private func report(_ failure: ShimFailure<Output, Failure>) {
        let message = ShimMessages.failure(failure, of: rule.call)
        reporter.report(ExpectationFailure(message: message, location: location))
    }
}

#endif
