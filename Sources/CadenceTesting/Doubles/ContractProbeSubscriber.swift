import CadenceSupport
import Foundation

/// The subscriber of one probe of `checkPublisherContract`: it keeps the books of what it asked for and what it got,
/// and notes every event that breaks the contract (the first of each rule).
final class ContractProbeSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    // Everything that changes is in `state`, behind its lock; `reaction`, `valueLimit` and `concurrent` are immutable.

    /// What the subscriber does, from inside `receive(_:)`, when a value arrives.
    enum Reaction {
        /// Nothing: it returns `.none`.
        case nothing
        /// It cancels on the first value.
        case cancelOnFirstValue
        /// It requests one more value, re-entrantly, on each value.
        case requestOneMore
    }

    /// What `receive(_:)` does once it has left the lock.
    private enum AfterValue {
        case nothing
        case cancel(any Subscription)
        case request(any Subscription)
    }

    private struct State {
        var subscription: (any Subscription)?
        var subscriptions = 0
        var requested: Subscribers.Demand = .none
        /// Values received within the subscription's life (not after its completion or cancel).
        var accepted = 0
        /// Whether the publisher completed, and whether with a failure.
        var completion: Bool?
        var cancelled = false
        /// Set while a `request(_:)` made after the cancel runs.
        var requestingAfterCancel = false
        /// Set when `receive(_:)` cancelled, until the probe's call that delivered the value returns: a completion
        /// that comes in that call is the rest of the delivery, as Combine's `Just` and `Future` send it.
        var completionMayFollow = false
        var breaches: [ContractBreach] = []
        /// How deep each thread is in a call of the subscriber.
        var inside: [ObjectIdentifier: Int] = [:]

        mutating func note(_ breach: ContractBreach) {
            if !breaches.contains(where: { $0.rule == breach.rule }) { breaches.append(breach) }
        }

        /// Enters a call of the subscriber on the current thread, noting one made while another thread is in one.
        mutating func enter(_ call: String) {
            let thread = ObjectIdentifier(Thread.current)
            if inside.contains(where: { $0.key != thread }) { note(.concurrentSignals(call)) }
            inside[thread, default: 0] += 1
        }

        mutating func exit() {
            let thread = ObjectIdentifier(Thread.current)
            let depth = (inside[thread] ?? 1) - 1
            inside[thread] = depth > 0 ? depth : nil
        }

        /// Whether an event arriving now is out of place — after the completion or the cancel, or before the
        /// subscription — and so not counted against the demand. Notes the rule it breaks.
        mutating func isOutOfPlace(_ event: ContractBreach.Event, concurrent: Bool) -> Bool {
            if let failed = completion {
                note(.afterCompletion(event, completion: failed))
                return true
            }
            if cancelled {
                if case .completion = event, completionMayFollow {
                    completionMayFollow = false
                    return true
                }
                // A value already in flight when another thread cancelled is allowed.
                if requestingAfterCancel {
                    note(.duringRequestAfterCancel(event))
                } else if !concurrent {
                    note(.afterCancel(event))
                }
                return true
            }
            if subscriptions == 0 {
                note(.beforeSubscription(event))
                return true
            }
            return false
        }
    }

    let combineIdentifier = CombineIdentifier()
    private let state = Locked(State())
    private let reaction: Reaction
    private let valueLimit: Int
    /// Whether other threads request and cancel: an event after the cancel may have been in flight.
    private let concurrent: Bool

    /// Where the probe's own calls of the publisher are noted, to name one that never returns.
    private let calls: ProbeCalls?

    init(reaction: Reaction, valueLimit: Int, concurrent: Bool, calls: ProbeCalls? = nil) {
        self.reaction = reaction
        self.valueLimit = valueLimit
        self.concurrent = concurrent
        self.calls = calls
    }

    // MARK: Subscriber

    func receive(subscription: any Subscription) {
        let isFirst = state.withLock { state in
            state.enter("receive(subscription:)")
            state.subscriptions += 1
            guard state.subscriptions == 1 else {
                state.note(.secondSubscription)
                return false
            }
            state.subscription = subscription
            return true
        }
        if !isFirst { subscription.cancel() }
        state.withLock { $0.exit() }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        let then: AfterValue = state.withLock { state in
            state.enter("receive(_:)")
            if state.isOutOfPlace(.value, concurrent: concurrent) { return .nothing }
            state.accepted += 1
            if let max = state.requested.max, state.accepted > max {
                state.note(.valuesBeyondDemand(count: state.accepted, requested: max))
            }
            guard let subscription = state.subscription else { return .nothing }
            if state.accepted >= valueLimit || reaction == .cancelOnFirstValue {
                state.cancelled = true
                state.completionMayFollow = true
                return .cancel(subscription)
            }
            if reaction == .requestOneMore {
                state.requested += 1
                return .request(subscription)
            }
            return .nothing
        }
        switch then {
        case .nothing: break
        case let .cancel(subscription): subscription.cancel()
        case let .request(subscription): subscription.request(.max(1))
        }
        state.withLock { $0.exit() }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let failed = if case .failure = completion { true } else { false }
        state.withLock { state in
            state.enter("receive(completion:)")
            defer { state.exit() }
            if state.isOutOfPlace(.completion(failed: failed), concurrent: concurrent) { return }
            state.completion = failed
            state.subscription = nil
        }
    }

    // MARK: What a probe does and reads

    var hasSubscription: Bool { state.withLock { $0.subscriptions > 0 } }
    var accepted: Int { state.withLock { $0.accepted } }
    var breaches: [ContractBreach] { state.withLock { $0.breaches } }
    /// Whether the subscription is over: completed or cancelled.
    var isOver: Bool { state.withLock { $0.completion != nil || $0.cancelled } }
    var wasCancelled: Bool { state.withLock { $0.cancelled } }

    /// Requests `demand`, unless the subscription is over.
    func request(_ demand: Subscribers.Demand) {
        let subscription = state.withLock { state -> (any Subscription)? in
            guard state.completion == nil, !state.cancelled else { return nil }
            state.requested += demand
            return state.subscription
        }
        calls?.enter("request(_:)")
        subscription?.request(demand)
        settle()
    }

    /// Ends the probe's call: a completion that comes later is no longer part of a delivery in progress.
    func settle() {
        state.withLock { $0.completionMayFollow = false }
    }

    /// Cancels, unless the subscription is over.
    func cancel() {
        let subscription = state.withLock { state -> (any Subscription)? in
            guard state.completion == nil, !state.cancelled else { return nil }
            state.cancelled = true
            return state.subscription
        }
        calls?.enter("cancel()")
        subscription?.cancel()
    }

    /// Requests `.max(1)` on a cancelled subscription: it must deliver nothing.
    func requestAfterCancel() {
        let subscription = state.withLock { state -> (any Subscription)? in
            guard state.cancelled else { return nil }
            state.requestingAfterCancel = true
            return state.subscription
        }
        guard let subscription else { return }
        calls?.enter("request(_:)")
        subscription.request(.max(1))
        state.withLock { $0.requestingAfterCancel = false }
    }

    /// Requests `.max(1)` from one of several threads, whatever the state: the calls race with a cancel on purpose.
    func requestFromThread() {
        let subscription = state.withLock { state -> (any Subscription)? in
            state.requested += 1
            return state.subscription
        }
        subscription?.request(.max(1))
    }

    /// Notes a breach the probe found itself (its threads hung).
    func note(_ breach: ContractBreach) {
        state.withLock { $0.note(breach) }
    }

    /// Lets go of the subscription, as a subscriber does once it is over.
    func letGo() {
        state.withLock { $0.subscription = nil }
    }
}

/// A weak reference, to see whether a publisher let go of a probe's subscriber.
final class WeakReference: @unchecked Sendable { // written once on the probing thread, read there after
    weak var object: AnyObject?
}
