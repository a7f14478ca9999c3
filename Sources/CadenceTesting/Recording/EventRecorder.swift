import CadenceSupport

/// The subscriber `expect(_:)` attaches: it records every event with its time, tracks demand, and notices each way a
/// publisher can break the subscription contract, without ever trapping.
///
/// Thread-safe: a publisher may deliver from any thread while a test reads the record. Nothing is called while the lock
/// is held; the subscription's `request` and `cancel`, and the observers, are called after it is released.
final class EventRecorder<Output, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    // `state` (a Locked) guards every mutable property, `recordedEvents` included; the lets are immutable.
    // Everything but the events lives in `RecorderState`, which is not generic: code here is not specialised for
    // `Output` and `Failure`, so each generic type it touches costs a metadata lookup at run time.
    typealias State = RecorderState
    typealias Observer = RecorderObserver

    /// The events recorded so far; guarded by `state`'s lock.
    var recordedEvents: [TimedEvent<Output, Failure>] = []

    let state: Locked<State>
    /// The clock whose ticks time the events; nil for wall-clock time.
    let clock: VirtualClock?
    /// When recording started, for wall-clock times.
    let start: ContinuousClock.Instant
    let initialDemand: Subscribers.Demand

    init(clock: VirtualClock?, demand: Subscribers.Demand) {
        state = Locked(State())
        self.clock = clock
        start = ContinuousClock.now
        initialDemand = demand
    }

    var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }

    /// The time now, on the recorder's clock.
    var now: EventTime {
        if let clock { return .tick(clock.now.ticks) }
        return .elapsed(ContinuousClock.now - start)
    }

    /// The wall-clock time since recording started, whatever the recorder's clock.
    var elapsedNow: Duration { ContinuousClock.now - start }

    /// The time now on the recorder's clock, and on the wall clock since recording started: an event keeps both, so
    /// that a chain checked with wall-clock steps reads wall-clock times even when it has a virtual clock.
    /// With a clock, the sequence number orders the event against the events of every recorder on that clock.
    var stamp: (time: EventTime, elapsed: Duration, sequence: UInt64) {
        let elapsed = ContinuousClock.now - start
        guard let clock else { return (.elapsed(elapsed), elapsed, 0) }
        let (ticks, sequence) = clock.stamp()
        return (.tick(ticks), elapsed, sequence)
    }

    // MARK: Subscriber

    func receive(subscription: any Subscription) {
        let (time, elapsed, sequence) = stamp
        let (accepted, index, observers) = state.withLock { state -> (Bool, Int, [Observer]) in
            // Room for a short stream (a subscription, a few values, a completion) in one allocation, instead of
            // growing the array on the first, second and third event. Here, not in `init`: this code has the
            // array's generic metadata at hand already, which `init` would look up just for this.
            if recordedEvents.capacity == 0 {
                recordedEvents.reserveCapacity(4)
                state.reportable.reserveCapacity(4)
            }
            // Once subscribed, any later subscription is a second one — after a completion too, which ended the first.
            if state.subscribed || state.cancelled {
                recordedEvents.append(
                    TimedEvent(
                        .subscription, at: time, elapsed: elapsed, sequence: sequence, violation: .secondSubscription
                    ))
                state.reportable.append(true)
                return (false, recordedEvents.count - 1, state.observers)
            }
            state.subscription = subscription
            state.subscribed = true
            recordedEvents.append(
                TimedEvent(.subscription, at: time, elapsed: elapsed, sequence: sequence, violation: nil))
            state.reportable.append(false)
            state.outstanding = initialDemand
            state.requested = initialDemand
            return (true, recordedEvents.count - 1, state.observers)
        }
        if accepted {
            if initialDemand > .none { subscription.request(initialDemand) }
        } else {
            subscription.cancel()
        }
        for observer in observers { observer.call(index) }
    }

    func receive(_ input: Output) -> Subscribers.Demand {
        let (time, elapsed, sequence) = stamp
        let (index, observers) = state.withLock { state -> (Int, [Observer]) in
            let violation: ContractViolation?
            if state.cancelled {
                violation = .afterCancel
            } else if state.completed {
                violation = .valueAfterCompletion
            } else if !state.subscribed {
                // Neither cancelled nor completed: no subscription means none arrived. (Asked of `subscribed`, not
                // of `subscription`, which would copy the existential out and back for the comparison.)
                violation = .beforeSubscription
            } else if state.outstanding == .none {
                violation = .beyondDemand(requested: state.requested)
            } else {
                violation = nil
                state.outstanding -= 1
            }
            recordedEvents.append(
                TimedEvent(
                    .value(input), at: time, elapsed: elapsed, sequence: sequence, violation: violation
                ))
            state.reportable.append(true)
            return (recordedEvents.count - 1, state.observers)
        }
        for observer in observers { observer.call(index) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let (time, elapsed, sequence) = stamp
        let (index, observers) = state.withLock { state -> (Int, [Observer]) in
            let violation: ContractViolation?
            if state.cancelled {
                violation = .afterCancel
            } else if state.completed {
                violation = .secondCompletion
            } else if !state.subscribed {
                violation = .beforeSubscription // as in `receive(_:)`
            } else {
                violation = nil
            }
            state.completed = true
            state.subscription = nil
            recordedEvents.append(
                TimedEvent(
                    .completion(completion), at: time, elapsed: elapsed, sequence: sequence, violation: violation
                ))
            state.reportable.append(true)
            return (recordedEvents.count - 1, state.observers)
        }
        for observer in observers { observer.call(index) }
    }

    // MARK: Driving the subscription

    /// Signals `demand` more to the publisher; returns false when there is no live subscription to signal it to.
    @discardableResult
    func request(_ demand: Subscribers.Demand) -> Bool {
        let subscription = state.withLock { state -> (any Subscription)? in
            guard let subscription = state.subscription, !state.cancelled, demand > .none else { return nil }
            state.outstanding += demand
            state.requested += demand
            return subscription
        }
        subscription?.request(demand)
        return subscription != nil
    }

    /// Cancels the subscription; events that arrive afterwards are recorded as violations.
    func cancel() {
        let subscription = state.withLock { state -> (any Subscription)? in
            state.cancelled = true
            defer { state.subscription = nil }
            return state.subscription
        }
        subscription?.cancel()
    }

    // MARK: Reading

    /// The events recorded so far.
    var events: [TimedEvent<Output, Failure>] { state.withLock { _ in recordedEvents } }

    /// The number of events recorded so far.
    var eventCount: Int { state.withLock { _ in recordedEvents.count } }

    /// Whether a subscription has arrived (even if it has since completed or been cancelled).
    var hasSubscribed: Bool { state.withLock { $0.subscribed } }

    /// Whether the publisher has completed, leaving the recorder with no subscription.
    var hasCompleted: Bool { state.withLock { $0.completed && $0.subscription == nil } }

    /// Whether the publisher subscribed and then completed, leaving the recorder with no subscription, and every
    /// event worth reporting (all but a subscription that kept the contract) is marked consumed in `consumedBy`.
    /// Reads no event, so unspecialised code asks the runtime for no metadata of the events' generic types.
    func hasCompleted(consumingAllBut consumedBy: ConsumedEvents) -> Bool {
        state.withLock { state in
            guard state.subscribed, state.completed, state.subscription == nil else { return false }
            for index in state.reportable.indices where state.reportable[index] && consumedBy[index] == nil {
                return false
            }
            return true
        }
    }

    /// All the demand signalled so far.
    var requested: Subscribers.Demand { state.withLock { $0.requested } }

    /// Calls `observer` after each event from now on, outside the lock, with the event's index.
    /// - Returns: an identifier that ``stopObserving(_:)`` takes.
    @discardableResult
    func observe(_ observer: @escaping @Sendable (Int) -> Void) -> Int {
        state.withLock { state in
            defer { state.nextObserverID += 1 }
            state.observers.append(Observer(id: state.nextObserverID, call: observer))
            return state.nextObserverID
        }
    }

    /// Removes the observer `observe(_:)` returned `id` for; it may still be called once if an event is being
    /// delivered meanwhile.
    func stopObserving(_ id: Int) {
        state.withLock { $0.observers.removeAll { $0.id == id } }
    }
}

/// The state of an ``EventRecorder`` other than its events.
struct RecorderState {
    var subscription: (any Subscription)?
    /// Demand signalled and not yet used up by values.
    var outstanding: Subscribers.Demand = .none
    /// All the demand signalled so far.
    var requested: Subscribers.Demand = .none
    var completed = false
    var cancelled = false
    /// Whether a subscription has arrived (it may have completed or been cancelled since).
    var subscribed = false
    /// Called, outside the lock, after each event is recorded; with the event's index.
    var observers: [RecorderObserver] = []
    var nextObserverID = 0
    /// For each event recorded, in order: whether a chain must report it when no step consumed it — every event but
    /// a subscription that kept the contract. Kept beside the events so that a passing chain's end reads no event.
    var reportable: [Bool] = []
}

/// A function an ``EventRecorder`` calls after each event, with the event's index.
struct RecorderObserver {
    let id: Int
    let call: @Sendable (Int) -> Void
}
