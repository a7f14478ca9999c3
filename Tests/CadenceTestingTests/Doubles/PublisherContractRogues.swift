// Publishers that each break one rule of the subscription contract on purpose, for PublisherContractTests.
import CadenceSupport
import Foundation

@testable import CadenceTesting

/// A subscription for the rogues below: it holds its subscriber until it is cancelled, counts what it sent, and does
/// on each request what its publisher tells it.
final class RogueSubscription: Subscription {
    let combineIdentifier = CombineIdentifier()
    var downstream: AnySubscriber<Int, Never>?
    var sent = 0
    private let onRequest: (RogueSubscription, Subscribers.Demand) -> Void

    init<S: Subscriber>(_ subscriber: S, onRequest: @escaping (RogueSubscription, Subscribers.Demand) -> Void)
    where S.Input == Int, S.Failure == Never {
        downstream = AnySubscriber(subscriber)
        self.onRequest = onRequest
    }

    func send(_ value: Int) {
        sent += 1
        _ = downstream?.receive(value)
    }

    func finish() {
        downstream?.receive(completion: .finished)
    }

    func request(_ demand: Subscribers.Demand) { onRequest(self, demand) }
    func cancel() { downstream = nil }
}

/// Sends two values on its first request, whatever was requested (rule 1.1).
struct FloodingPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriber.receive(
            subscription: RogueSubscription(subscriber) { rogue, _ in
                guard rogue.sent == 0 else { return }
                rogue.send(1)
                rogue.send(2)
            })
    }
}

/// Sends one value a request, two in all; a request made from inside `receive(_:)` is served from another thread
/// while the first is still inside (rule 1.3).
struct OverlappingPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        var delivering = false
        subscriber.receive(
            subscription: RogueSubscription(subscriber) { rogue, _ in
                guard rogue.sent < 2 else { return }
                guard delivering else {
                    delivering = true
                    rogue.send(rogue.sent + 1)
                    delivering = false
                    return
                }
                let box = UncheckedBox(rogue)
                let done = DispatchSemaphore(value: 0)
                Thread {
                    box.value.send(box.value.sent + 1)
                    done.signal()
                }.start()
                done.wait()
            })
    }
}

/// A value passed to another thread that the sender stops touching until that thread is done.
struct UncheckedBox<Value>: @unchecked Sendable { // the sender waits for the thread that uses it
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// Sends a value, finishes, and sends another (rule 1.7).
struct SendsAfterFinishingPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriber.receive(
            subscription: RogueSubscription(subscriber) { rogue, _ in
                guard rogue.sent == 0 else { return }
                rogue.send(1)
                rogue.finish()
                rogue.send(2)
            })
    }
}

/// Sends 1, 2 and 3 as demanded, but once it is sending goes on to the end even when cancelled meanwhile (rule 1.8).
struct FinishesWhatItStartedPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        var demand = Subscribers.Demand.none
        var sending = false
        subscriber.receive(
            subscription: RogueSubscription(subscriber) { rogue, more in
                guard let downstream = rogue.downstream else { return }
                demand += more
                guard !sending else { return }
                sending = true
                while demand > 0, rogue.sent < 3 {
                    demand -= 1
                    rogue.sent += 1
                    demand += downstream.receive(rogue.sent) // the subscriber it captured, cancelled or not
                }
                sending = false
                if rogue.sent == 3, rogue.downstream != nil {
                    rogue.downstream = nil
                    downstream.receive(completion: .finished)
                }
            })
    }
}

/// Never sends a subscription (rule 1.9).
struct SubscriptionlessPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    func receive<S: Subscriber>(subscriber _: S) where S.Input == Int, S.Failure == Never {}
}

/// Sends a value before its subscription, then behaves as `Just` (rule 1.9).
struct EagerPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        _ = subscriber.receive(0)
        Just(1).receive(subscriber: subscriber)
    }
}

/// Behaves as `Just`, then sends a second subscription (rule 2.12).
struct DoublySubscribingPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        Just(1).receive(subscriber: subscriber)
        subscriber.receive(subscription: Subscriptions.empty)
    }
}

/// Behaves as `Just` until cancelled; a request after the cancel still reaches its subscriber, if that is an object
/// still alive (rule 3.6).
struct StillListeningPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    final class Inner<S: Subscriber>: Subscription where S.Input == Int, S.Failure == Never {
        let combineIdentifier = CombineIdentifier()
        var downstream: S?
        weak var former: AnyObject?

        init(_ subscriber: S) {
            downstream = subscriber
            former = subscriber as AnyObject
        }

        func request(_: Subscribers.Demand) {
            guard let downstream else {
                _ = (former as? S)?.receive(7)
                return
            }
            self.downstream = nil
            _ = downstream.receive(1)
            downstream.receive(completion: .finished)
        }

        func cancel() { downstream = nil }
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriber.receive(subscription: Inner(subscriber))
    }
}

/// Behaves as `Just`, but its subscription keeps itself, and so its subscriber, alive (rule 3.13).
struct HoardingPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        var keepAlive: RogueSubscription?
        let subscription = RogueSubscription(subscriber) { rogue, _ in
            guard rogue.sent == 0 else { return }
            _ = keepAlive
            rogue.send(1)
            rogue.finish()
        }
        keepAlive = subscription
        subscriber.receive(subscription: subscription)
    }
}

/// Sends a value and finishes twice (rule 1.7).
struct FinishingTwicePublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriber.receive(
            subscription: RogueSubscription(subscriber) { rogue, _ in
                guard rogue.sent == 0 else { return }
                rogue.send(1)
                rogue.finish()
                rogue.finish()
            })
    }
}

/// Does not return from `subscribe(_:)` until `gate` opens, or a minute has passed (rule C.1, when the gate stays
/// shut): an endless loop, bounded so that the thread the check leaves running ends.
struct StuckSubscribingPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    let gate: DispatchSemaphore

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        _ = gate.wait(timeout: .now() + 60)
        Just(1).receive(subscriber: subscriber)
    }
}

/// Sends a subscription at once, then does not return from its first `request(_:)` until `gate` opens, or a minute
/// has passed (rule C.1).
struct StuckRequestingPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    let gate: DispatchSemaphore

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        let gate = gate
        subscriber.receive(
            subscription: RogueSubscription(subscriber) { _, _ in
                _ = gate.wait(timeout: .now() + 60)
            })
    }
}

/// `Just(1)` that notes, at each subscription, whether it was made on the main queue (where the main actor's jobs
/// run), on the thread that called the check (marked `"calledTheCheck"` in its thread dictionary), and with which
/// `VirtualClock.current`.
struct ThreadNotingPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    struct Note: Sendable {
        let onMainQueue: Bool
        let onTheCallersThread: Bool
        let clock: ObjectIdentifier?
    }

    let notes: Locked<[Note]>

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        notes.withLock {
            $0.append(
                Note(
                    onMainQueue: MainQueue.isCurrent,
                    onTheCallersThread: Thread.current.threadDictionary["calledTheCheck"] != nil,
                    clock: VirtualClock.current.map(ObjectIdentifier.init)
                ))
        }
        Just(1).receive(subscriber: subscriber)
    }
}

/// `Just(1)` that reports a failure the first time it is subscribed, as a test double made in the test would (an
/// unimplemented scheduler called), through `FailureReporter.resolved`.
struct ReportingPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    let reported: Locked<Bool>

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        if !reported.withLock({ reported in
            defer { reported = true }
            return reported
        }) {
            FailureReporter.resolved.report(
                ExpectationFailure(
                    message: "reported from inside subscribe(_:)",
                    location: SourceCodeLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
                ))
        }
        Just(1).receive(subscriber: subscriber)
    }
}
