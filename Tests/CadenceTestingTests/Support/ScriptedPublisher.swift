import CadenceSupport
import CadenceTesting

#if canImport(Combine)
import Combine
#endif

/// A test-only publisher that plays a fixed script to each subscriber, keeping none of the subscription contract: it
/// ignores demand and cancellation, and sends exactly what the script says, in order — subscriptions, values and
/// completions — at the given ticks.
///
/// Each entry without a tick (or with a tick not after the clock's current one) is sent synchronously inside
/// `subscribe`; the others are scheduled on `clock`, in order. The named factories below are the misbehaviours the
/// over-fulfilment tests need.
struct ScriptedPublisher<Output, Failure: Error>: Publisher {
    enum Entry {
        case subscription
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
    }

    let script: [(tick: Int64?, entry: Entry)]
    let clock: VirtualClock?
    /// Values its subscriptions send, synchronously, when they are cancelled.
    let onCancel: [Output]
    /// What the subscriptions it handed out were asked for.
    let log = ScriptLog()

    init(_ script: [(tick: Int64?, entry: Entry)], clock: VirtualClock? = nil, onCancel: [Output] = []) {
        self.script = script
        self.clock = clock
        self.onCancel = onCancel
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let log = log
        let onCancel = onCancel
        for (tick, entry) in script {
            let send = {
                switch entry {
                case .subscription:
                    subscriber.receive(
                        subscription: ScriptedSubscription(log: log) {
                            for value in onCancel { _ = subscriber.receive(value) }
                        })
                case let .value(value): _ = subscriber.receive(value)
                case let .completion(completion): subscriber.receive(completion: completion)
                }
            }
            if let tick, let clock, tick > clock.now.ticks {
                clock.schedule(at: VirtualClock.Instant(ticks: tick), send)
            } else {
                send()
            }
        }
    }
}

extension ScriptedPublisher {
    /// Subscribes, then sends `values` at once, whatever the demand, then `completion` if given.
    static func ignoringDemand(
        _ values: [Output],
        then completion: Subscribers.Completion<Failure>? = nil
    ) -> Self {
        Self(
            [(nil, .subscription)] + values.map { (nil, .value($0)) }
                + (completion.map { [(nil, .completion($0))] } ?? []))
    }

    /// Never sends anything, not even a subscription.
    static var neverSubscribing: Self { Self([]) }

    /// Subscribes, then sends each `(tick, event)` at its tick on `clock` (at once for a tick already reached).
    static func timed(_ events: [(Int64, Entry)], on clock: VirtualClock, onCancel: [Output] = []) -> Self {
        Self([(nil, .subscription)] + events.map { (Optional($0.0), $0.1) }, clock: clock, onCancel: onCancel)
    }
}

extension ScriptedPublisher where Failure == Never {
    /// Subscribes, sends `values`, finishes, then sends `after`.
    static func sending(_ values: [Output], thenFinishing after: [Output]) -> Self {
        Self(
            [(nil, .subscription)] + values.map { (nil, .value($0)) } + [(nil, .completion(.finished))]
                + after.map { (nil, .value($0)) })
    }

    /// Subscribes, sends `values` and finishes twice.
    static func finishingTwice(after values: [Output]) -> Self {
        Self(
            [(nil, .subscription)] + values.map { (nil, .value($0)) }
                + [(nil, .completion(.finished)), (nil, .completion(.finished))])
    }

    /// Sends two subscriptions, then `values` and a finish.
    static func subscribingTwice(then values: [Output]) -> Self {
        Self(
            [(nil, .subscription), (nil, .subscription)] + values.map { (nil, .value($0)) }
                + [(nil, .completion(.finished))])
    }
}

/// What the subscriptions of a ``ScriptedPublisher`` were asked for.
final class ScriptLog: Sendable {
    private let state = Locked<(requests: [Subscribers.Demand], cancels: Int)>(([], 0))

    var requests: [Subscribers.Demand] { state.withLock { $0.requests } }
    var cancels: Int { state.withLock { $0.cancels } }

    func record(request demand: Subscribers.Demand) { state.withLock { $0.requests.append(demand) } }
    func recordCancel() { state.withLock { $0.cancels += 1 } }
}

/// A subscription that logs what it is asked, and runs `onCancel` when cancelled.
private final class ScriptedSubscription: Subscription {
    let log: ScriptLog
    let onCancel: () -> Void
    init(log: ScriptLog, onCancel: @escaping () -> Void) {
        self.log = log
        self.onCancel = onCancel
    }
    var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
    func request(_ demand: Subscribers.Demand) { log.record(request: demand) }
    func cancel() {
        log.recordCancel()
        onCancel()
    }
}

/// Hands a thread-safe but non-`Sendable` value (a subject: Combine's are not `Sendable`) to other threads.
struct ThreadSafe<Value>: @unchecked Sendable { // only for values whose own lock makes them safe across threads
    let value: Value
    init(_ value: Value) { self.value = value }
}
