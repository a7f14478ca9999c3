/// Every sentence of `checkPublisherContract`'s failures: the rules' texts and what a publisher did to break one.
enum ContractText {
    /// The rule as the guide and the failures state it.
    static func text(of rule: ContractRule) -> String {
        switch rule {
        case .beyondDemand: "a publisher sends no more values than requested"
        case .serialSignals: "a publisher signals its subscriber serially, never from two threads at once"
        case .afterCompletion: "nothing follows a completion"
        case .afterCancel: "nothing follows a cancel"
        case .subscriptionFirst: "a publisher sends a subscription before anything else"
        case .oneSubscription: "a publisher sends a subscriber one subscription"
        case .requestAfterCancel: "a request after a cancel does nothing"
        case .releasesSubscriber: "a cancelled or completed subscription lets go of its subscriber"
        case .returns: "subscribe(_:), request(_:) and cancel() return, even when called from several threads at once"
        }
    }

    /// `"checkPublisherContract: Just<Int> broke rule 1.1 (…): it sent 2 values when max(1) had been requested, in
    /// the probe "demand one at a time"."`
    static func failure(publisher: String, rule: ContractRule, breach: ContractBreach, probe: String) -> String {
        "checkPublisherContract: \(publisher) broke rule \(rule.id) (\(text(of: rule))): \(describe(breach)), in the "
            + "probe \"\(probe)\"."
    }

    /// What the publisher did.
    static func describe(_ breach: ContractBreach) -> String {
        switch breach {
        case let .valuesBeyondDemand(count, requested):
            "it sent \(ChainText.count(count, "value")) when \(demand(.max(requested))) had been requested"
        case let .concurrentSignals(signal):
            "it called \(signal) from a second thread while the first was still in a call of the subscriber"
        case let .afterCompletion(event, completion):
            "it sent \(describe(event)) after it had \(past(completion))"
        case let .afterCancel(event):
            "it sent \(describe(event)) after the subscription was cancelled"
        case .noSubscription(let clock):
            clock
                ? "it never sent a subscription, not even once the clock had run out of work"
                : "it sent no subscription during subscribe(_:)"
        case let .beforeSubscription(event):
            "it sent \(describe(event)) before a subscription"
        case .secondSubscription:
            "it sent a second subscription (the probe cancelled it)"
        case let .duringRequestAfterCancel(event):
            "request(.max(1)) after cancel() made it send \(describe(event))"
        case let .keptSubscriber(cancelled):
            "it still held the subscriber after the subscription was \(cancelled ? "cancelled" : "completed") and "
                + "the probe had let go of everything else"
        case let .hung(threads, seconds):
            "\(threads) threads calling request(_:) and cancel() had not all returned after "
                + "\(ChainText.count(seconds, "second")); they are left running"
        case let .didNotReturn(call, seconds):
            "it had not returned from \(call) after \(ChainText.count(seconds, "second")) on the probe's thread, "
                + "which is left running"
        }
    }

    /// `"a value"`, `"a completion (finished)"`.
    private static func describe(_ event: ContractBreach.Event) -> String {
        switch event {
        case .value: "a value"
        case let .completion(failed): "a completion (\(failed ? "failure" : "finished"))"
        }
    }

    private static func past(_ failed: Bool) -> String { failed ? "failed" : "finished" }

    /// `"max(1)"`, `"unlimited"`, `"nothing"`.
    static func demand(_ demand: Subscribers.Demand) -> String {
        if demand == .unlimited { return "unlimited" }
        let max = demand.max ?? 0
        return max == 0 ? "nothing" : "max(\(max))"
    }
}

/// What a publisher did that broke a rule, as `checkPublisherContract`'s probing subscriber saw it.
enum ContractBreach: Sendable, Equatable {
    enum Event: Sendable, Equatable {
        case value
        /// A completion; `failed` when it was a failure.
        case completion(failed: Bool)
    }

    case valuesBeyondDemand(count: Int, requested: Int)
    case concurrentSignals(String)
    /// `completion` is whether the first completion was a failure.
    case afterCompletion(Event, completion: Bool)
    case afterCancel(Event)
    case noSubscription(clock: Bool)
    case beforeSubscription(Event)
    case secondSubscription
    case duringRequestAfterCancel(Event)
    case keptSubscriber(cancelled: Bool)
    case hung(threads: Int, seconds: Int)
    /// A call on the probe's own thread (`"subscribe(_:)"`, `"request(_:)"`, `"cancel()"`, `"the clock's actions"`)
    /// had not returned within the wait.
    case didNotReturn(call: String, seconds: Int)

    /// The rule it broke.
    var rule: ContractRule {
        switch self {
        case .valuesBeyondDemand: .beyondDemand
        case .concurrentSignals: .serialSignals
        case .afterCompletion: .afterCompletion
        case .afterCancel: .afterCancel
        case .noSubscription, .beforeSubscription: .subscriptionFirst
        case .secondSubscription: .oneSubscription
        case .duringRequestAfterCancel: .requestAfterCancel
        case .keptSubscriber: .releasesSubscriber
        case .hung, .didNotReturn: .returns
        }
    }
}
