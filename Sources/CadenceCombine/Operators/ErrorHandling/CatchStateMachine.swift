/// The state of `catch` and `tryCatch`, with no side effects: each transition says what the caller must do outside
/// the lock.
///
/// The subscription reads the upstream until it fails, then the replacement publisher the handler returns; the
/// demand the downstream asked for and has not received carries over to the replacement.
///
/// A cancel, as in Combine, cancels the publisher being read and stops requests and completions, but a value that
/// publisher still sends goes on to the downstream, which the subscription keeps for its whole life; so does a value
/// the failed upstream sends after the handler threw. A cancel made
/// while the handler's publisher has not subscribed yet ends everything: that publisher's subscription is cancelled
/// when it comes (Combine forgets such a cancel).
struct CatchStateMachine<Downstream> {
    /// What to do with the upstream's completion.
    enum UpstreamCompletionAction {
        case none
        /// Deliver `.finished` to the downstream, which the state has let go of.
        case finish(Downstream)
        /// Call the handler with the error (outside the lock), then subscribe to its replacement or report what it
        /// threw through ``handlerThrew()``.
        case callHandler
        /// The upstream failed before its subscription, or again after its first failure: a broken rule, on which
        /// Combine traps.
        case failedOutOfTurn
    }

    /// What to do with a value from the upstream.
    enum UpstreamValueAction {
        /// Too late (the subscription ended or the upstream was replaced): drop it.
        case none
        /// Hand it to the downstream.
        case deliver(Downstream)
        /// The downstream did not ask for it: a broken rule, on which Combine traps.
        case unrequested
    }

    private enum Phase {
        case awaitingUpstream
        case upstream(any Subscription)
        case awaitingReplacement
        case replacement(any Subscription)
        /// Cancelled while reading the upstream or the replacement, or the handler threw: a late value of the
        /// publisher being read still goes through, nothing else does.
        case passingLateValues(fromReplacement: Bool)
        case terminal
    }

    private var phase = Phase.awaitingUpstream
    /// What the downstream asked for and has not received yet.
    private(set) var demand = Subscribers.Demand.none
    let downstream: Downstream

    init(downstream: Downstream) {
        self.downstream = downstream
    }

    // MARK: Upstream

    /// The downstream to hand the operator to as its subscription, or nil when the caller must cancel `subscription`.
    mutating func receiveUpstream(subscription: any Subscription) -> Downstream? {
        guard case .awaitingUpstream = phase else { return nil }
        phase = .upstream(subscription)
        return downstream
    }

    /// A value from the upstream, counted against the demand; one arriving before the subscription finds none. After
    /// a cancel the upstream's late values still go through, as in Combine.
    mutating func receiveUpstreamValue() -> UpstreamValueAction {
        switch phase {
        case .awaitingUpstream, .upstream:
            guard demand > 0 else { return .unrequested }
            demand -= 1
            return .deliver(downstream)
        case .passingLateValues(fromReplacement: false):
            if demand > 0, demand != .unlimited {
                demand -= 1
            }
            return .deliver(downstream)
        case .awaitingReplacement, .replacement, .passingLateValues(fromReplacement: true), .terminal:
            return .none
        }
    }

    /// The downstream asked for `more` on receiving a value from the upstream.
    mutating func downstreamAsked(_ more: Subscribers.Demand) {
        demand += more
    }

    /// The upstream completed. Only a failure can be out of turn: a `.finished` that is not the upstream's first
    /// completion is ignored, as Combine ignores it.
    mutating func receiveUpstreamCompletion(isFailure: Bool) -> UpstreamCompletionAction {
        switch phase {
        case .upstream:
            guard isFailure else {
                phase = .terminal
                return .finish(downstream)
            }
            phase = .awaitingReplacement
            return .callHandler
        case .awaitingUpstream, .awaitingReplacement, .replacement:
            return isFailure ? .failedOutOfTurn : .none
        case .passingLateValues, .terminal:
            return .none
        }
    }

    /// The handler threw (or returned a failure): the downstream to fail — nil when the subscription was cancelled
    /// while the handler ran. As in Combine, a value the failed upstream still sends goes through after it.
    mutating func handlerThrew() -> Downstream? {
        guard case .awaitingReplacement = phase else { return nil }
        phase = .passingLateValues(fromReplacement: false)
        return downstream
    }

    // MARK: Replacement

    /// The demand to request from the replacement's `subscription` (when more than none), or nil when the caller
    /// must cancel it.
    mutating func receiveReplacement(subscription: any Subscription) -> Subscribers.Demand? {
        guard case .awaitingReplacement = phase else { return nil }
        phase = .replacement(subscription)
        return demand
    }

    /// A value from the replacement: the downstream to hand it to, if any. After a cancel the replacement's late
    /// values still go through, as in Combine.
    func receiveReplacementValue() -> Downstream? {
        switch phase {
        case .replacement, .passingLateValues(fromReplacement: true): downstream
        default: nil
        }
    }

    /// The replacement completed: the downstream to complete.
    mutating func receiveReplacementCompletion() -> Downstream? {
        guard case .replacement = phase else { return nil }
        phase = .terminal
        return downstream
    }

    // MARK: Subscription

    /// The downstream requested `additional`: the subscription to pass it to, if one is held.
    mutating func request(_ additional: Subscribers.Demand) -> (any Subscription)? {
        switch phase {
        case .upstream(let subscription):
            demand += additional
            return subscription
        case .awaitingReplacement:
            demand += additional
            return nil
        case .replacement(let subscription):
            return subscription
        case .awaitingUpstream, .passingLateValues, .terminal:
            return nil
        }
    }

    /// The subscription to cancel, outside the lock.
    mutating func cancel() -> (any Subscription)? {
        switch phase {
        case .upstream(let current):
            phase = .passingLateValues(fromReplacement: false)
            return current
        case .replacement(let current):
            phase = .passingLateValues(fromReplacement: true)
            return current
        case .awaitingUpstream, .awaitingReplacement:
            phase = .terminal
            return nil
        case .passingLateValues, .terminal:
            return nil
        }
    }
}
