/// Concatenate's state, with no side effects: each transition says what the caller must do outside the lock.
///
/// Only one upstream runs at a time, so values never overlap: the prefix's finish is what subscribes to the suffix,
/// which inherits the demand the downstream asked for and has not received. As Combine's, it keeps the downstream after
/// a cancel or a completion, for as long as the subscription lives.
struct ConcatenateStateMachine<Downstream, Suffix> {
    /// What to do with the prefix's completion.
    enum PrefixCompletionAction {
        case none
        /// The prefix finished: subscribe to the suffix (nil if it was already let go of).
        case subscribeSuffix(Suffix?)
        /// The prefix failed: deliver the failure to the downstream, then release the suffix.
        case fail(Downstream, released: Suffix?)
    }

    private enum Phase {
        case awaitingPrefix
        case prefix(any Subscription)
        case awaitingSuffix
        case suffix(any Subscription)
        case terminated
    }

    let downstream: Downstream
    private var suffix: Suffix?
    private var phase = Phase.awaitingPrefix
    private var suffixSubscribed = false
    /// What the downstream asked for and has not received yet.
    private(set) var demand = Subscribers.Demand.none

    init(downstream: Downstream, suffix: Suffix) {
        self.downstream = downstream
        self.suffix = suffix
    }

    // MARK: Prefix

    /// The downstream to hand the operator to as its subscription, or nil when the caller must cancel `subscription`.
    mutating func receivePrefix(subscription: any Subscription) -> Downstream? {
        guard case .awaitingPrefix = phase else { return nil }
        phase = .prefix(subscription)
        return downstream
    }

    /// A value from the prefix: the downstream to hand it to, if it may have it.
    mutating func receivePrefixValue() -> Downstream? {
        guard case .prefix = phase, demand > 0 else { return nil }
        demand -= 1
        return downstream
    }

    /// The downstream asked for `more` on receiving a value from the prefix.
    mutating func downstreamAsked(_ more: Subscribers.Demand) {
        demand += more
    }

    mutating func receivePrefixCompletion(isFailure: Bool) -> PrefixCompletionAction {
        guard case .prefix = phase else { return .none }
        defer { suffix = nil }
        guard isFailure else {
            phase = .awaitingSuffix
            return .subscribeSuffix(suffix)
        }
        phase = .terminated
        return .fail(downstream, released: suffix)
    }

    // MARK: Suffix

    /// The demand to request from the suffix's `subscription` (when more than none), or nil when the caller must
    /// cancel it.
    mutating func receiveSuffix(subscription: any Subscription) -> Subscribers.Demand? {
        guard case .awaitingSuffix = phase, !suffixSubscribed else { return nil }
        suffixSubscribed = true
        phase = .suffix(subscription)
        return demand
    }

    /// A value from the suffix: the downstream to hand it to, if any.
    func receiveSuffixValue() -> Downstream? {
        guard case .suffix = phase else { return nil }
        return downstream
    }

    /// The suffix completed: the downstream to complete.
    mutating func receiveSuffixCompletion() -> Downstream? {
        guard case .suffix = phase else { return nil }
        phase = .terminated
        return downstream
    }

    // MARK: Subscription

    /// The downstream requested `additional`: the upstream to pass it to, if one runs.
    mutating func request(_ additional: Subscribers.Demand) -> (any Subscription)? {
        demand += additional
        return upstream
    }

    /// The upstream to cancel, and the suffix to release, outside the lock. The downstream stays, as in Combine.
    mutating func cancel() -> (upstream: (any Subscription)?, released: Suffix?) {
        let upstream = upstream
        phase = .terminated
        defer { suffix = nil }
        return (upstream, suffix)
    }

    /// The upstream that runs now, if any.
    private var upstream: (any Subscription)? {
        switch phase {
        case .prefix(let subscription), .suffix(let subscription): subscription
        case .awaitingPrefix, .awaitingSuffix, .terminated: nil
        }
    }
}
