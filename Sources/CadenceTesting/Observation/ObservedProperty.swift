#if canImport(Observation)
import CadenceSupport
import Dispatch
import Observation

/// A publisher of a property of an `@Observable` object: the property's value when subscribed to, then its value
/// after each change, and `finished` when the object is released.
///
/// ```swift
/// @Observable final class Counter { var count = 0 }
///
/// let counter = Counter()
/// expect(ObservedProperty(counter, \.count)).toEmit([0])
/// ```
///
/// `expect(_:_:)` subscribes to one; it is public so that a property can also be combined with operators.
///
/// ## When values are read
/// `withObservationTracking` tells an observer *before* the property is stored (in its `willSet`): read there, it
/// still has the old value. So the publisher does not read it there. It reads it on the next turn:
/// - on the virtual clock it was given, as an action scheduled at the current tick — after the code that changed the
///   object has returned, and after every action already due at that tick (the clock runs same-tick work first-in
///   first-out, so the read comes at a known place in the order);
/// - without a clock, on the main queue — after the code running on the main thread (the main actor's current job)
///   has returned. Change such an object on the main actor, as SwiftUI requires.
///
/// Reading it re-registers the observation, so a change after the read is seen again. Changes made in one turn —
/// `counter.count = 1; counter.count = 2` in one go — are read once, after the last of them: the publisher sends `2`,
/// not `1`. Expect on a `@Published` property's publisher when each intermediate value matters. Every read is sent,
/// even one that finds the value it found before (`count = 1; count = 0` in one turn). Assigning an `Equatable`
/// property the value it already has is no change: the `@Observable` macro tells no observer.
///
/// A property whose storage Observation does not track (`@ObservationIgnored`, a `let`) sends its value once and
/// never again.
///
/// ## Release
/// The object is held weakly: the publisher does not keep it alive. When it is released, the observation Observation
/// held for it goes with it, and the publisher finishes — on the next turn, as a read would. A change not yet read
/// when the object goes is lost with it. (`expect(_:_:)` lets go of the `finished` of a release that comes after the
/// test's body has returned, or, outside a test scope, after its chain has ended: it is no event of the test.)
///
/// - Demand: a value read while the subscriber has no demand waits; a later read replaces it (the subscriber gets the
///   latest value when it asks).
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
public struct ObservedProperty<Object: Observable & AnyObject, Value>: Publisher {
    public typealias Output = Value
    public typealias Failure = Never

    /// The object, held weakly.
    private let box: WeakObject<Object>
    /// The property.
    public let keyPath: KeyPath<Object, Value>
    /// Where reads after a change run: this clock, at its current tick, or the main queue when nil.
    public let clock: VirtualClock?

    /// A publisher of `object[keyPath: keyPath]`, reading after each change on `clock` (by default the task's
    /// `VirtualClock.current`), or on the main queue when there is no clock.
    public init(_ object: Object, _ keyPath: KeyPath<Object, Value>, on clock: VirtualClock? = nil) {
        box = WeakObject(object)
        self.keyPath = keyPath
        self.clock = clock ?? VirtualClock.current
    }

    public func receive<Downstream: Subscriber>(subscriber: Downstream)
    where Downstream.Input == Value, Downstream.Failure == Never {
        let subscription = ObservedPropertySubscription(
            downstream: subscriber, object: box.object, keyPath: keyPath, clock: clock
        )
        // The value when subscribed, read (and observed) before the subscriber can ask for it.
        subscription.readAndObserve()
        subscriber.receive(subscription: subscription)
    }
}

/// A weak reference to an object, so that a publisher value does not keep its object alive.
struct WeakObject<Object: AnyObject>: @unchecked Sendable { // a weak reference is read atomically; nothing to guard
    weak var object: Object?

    init(_ object: Object) {
        self.object = object
    }
}

/// Told when Observation lets go of an observation's `onChange` closure: after calling it, or, never having called
/// it, because the observed object went.
final class ObservationToken: Sendable {
    private let fired = Locked(false)
    private let released: @Sendable () -> Void

    init(released: @escaping @Sendable () -> Void) {
        self.released = released
    }

    /// Notes that the observation fired (the closure goes next, and that is no release).
    func fire() {
        fired.withLock { $0 = true }
    }

    deinit {
        if !fired.withLock({ $0 }) { released() }
    }
}

/// What an ``ObservedProperty``'s subscription does on the next turn.
enum ObservationWork: Sendable {
    /// Read the property and observe it again.
    case read
    /// Finish: the object went.
    case finish
}

/// A subscription of an ``ObservedProperty``, without its generic types: what the next turn's closure calls.
protocol ObservationTurns: AnyObject, Sendable {
    /// Does `work` on the next turn.
    func nextTurn(_ work: ObservationWork)
    /// Does `work` now.
    func perform(_ work: ObservationWork)
}

/// A weak reference to a subscription of an ``ObservedProperty``.
struct WeakTurns: Sendable {
    weak var turns: (any ObservationTurns)?

    init(_ turns: any ObservationTurns) {
        self.turns = turns
    }
}

/// The subscription of an ``ObservedProperty``.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
final class ObservedPropertySubscription<Downstream: Subscriber, Object: Observable & AnyObject, Value>:
    Subscription, ObservationTurns, @unchecked Sendable
where Downstream.Input == Value, Downstream.Failure == Never {
    // `state` (a Locked) guards every mutable property but `object`, a weak reference (read atomically); the lets are
    // immutable. The property is read on the clock or the main queue (see ``ObservedProperty``), never under the lock.
    private struct State {
        var downstream: Downstream?
        var demand: Subscribers.Demand = .none
        /// The latest value read while there was no demand.
        var waiting: Value?
        /// Whether the object went; the completion follows the waiting value.
        var finishing = false
    }

    /// What a drain does next, outside the lock.
    private enum Action {
        case send(Downstream, Value)
        case finish(Downstream)
    }

    private weak var object: Object?
    private let keyPath: KeyPath<Object, Value>
    private let clock: VirtualClock?
    private let state: Locked<State>

    init(downstream: Downstream, object: Object?, keyPath: KeyPath<Object, Value>, clock: VirtualClock?) {
        self.object = object
        self.keyPath = keyPath
        self.clock = clock
        state = Locked(State(downstream: downstream))
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > .none else { return }
        state.withLock { $0.demand += demand }
        drain()
    }

    func cancel() {
        let downstream = state.withLock { state -> Downstream? in
            defer { state.downstream = nil }
            return state.downstream
        }
        // Released after the lock: letting go of a subscriber may run its deinitialiser.
        _ = consume downstream
    }

    // MARK: Observing

    /// Reads the property and observes it for the next change; finishes instead when the object has gone.
    func readAndObserve() {
        guard state.withLock({ $0.downstream != nil }) else { return }
        guard let object else {
            finish()
            return
        }
        let keyPath = keyPath
        // Held weakly and without its generic types by the closures Observation keeps.
        let subscription = WeakTurns(self)
        let token = ObservationToken { subscription.turns?.nextTurn(.finish) }
        let value = withObservationTracking {
            object[keyPath: keyPath]
        } onChange: {
            token.fire()
            subscription.turns?.nextTurn(.read)
        }
        state.withLock { $0.waiting = value }
        drain()
    }

    /// Does `work` on the next turn: on the clock at its current tick, or on the main queue.
    func nextTurn(_ work: ObservationWork) {
        guard state.withLock({ $0.downstream != nil }) else { return }
        // Erased, so that the closures capture no generic type.
        let turns: any ObservationTurns = self
        if let clock, !clock.hasEnded {
            clock.schedule(after: .zero) { turns.perform(work) }
        } else {
            DispatchQueue.main.async { turns.perform(work) }
        }
    }

    func perform(_ work: ObservationWork) {
        switch work {
        case .read: readAndObserve()
        case .finish:
            // Observation also lets go of an observation that tracked nothing (a property it does not track): that
            // is no release while the object is still there.
            if object == nil { finish() }
        }
    }

    private func finish() {
        state.withLock { $0.finishing = true }
        drain()
    }

    /// Sends the waiting value while there is demand, then the completion if the object went.
    private func drain() {
        while true {
            let action = state.withLock { state -> Action? in
                guard let downstream = state.downstream else { return nil }
                if let value = state.waiting {
                    guard state.demand > .none else { return nil }
                    state.waiting = nil
                    state.demand -= 1
                    return .send(downstream, value)
                }
                guard state.finishing else { return nil }
                state.downstream = nil
                return .finish(downstream)
            }
            switch action {
            case nil:
                return
            case let .send(downstream, value):
                let more = downstream.receive(value)
                if more > .none { state.withLock { $0.demand += more } }
            case let .finish(downstream):
                downstream.receive(completion: Subscribers.Completion<Never>.finished)
                return
            }
        }
    }
}
#endif
