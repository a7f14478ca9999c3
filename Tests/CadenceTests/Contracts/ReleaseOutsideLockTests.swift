import Cadence
import Foundation
import Testing

/// A subscription must not release user closures while it holds its lock: the last reference to an object can sit in
/// such a closure, and that object's `deinit` may cancel the very subscription (the usual cycle of an object that
/// stores the token of a pipeline whose closures capture it). Released under the lock, that `deinit` takes the same
/// lock again on the same thread and the pipeline deadlocks.
@Suite("Closures are released outside the lock")
struct ReleaseOutsideLockTests {
    // MARK: Sink

    @Test func sinkCompletionReleasingTheOwnerOfItsTokenDoesNotDeadlock() {
        let ownerWentAway = Witness()
        let returned = returnsWithoutDeadlock {
            let upstream = DrivenPublisher<Int, Never>()
            var values: [Int] = []
            do {
                let owner = TokenOwner(onDeinit: { ownerWentAway.mark() })
                owner.token = upstream.sink { value in
                    withExtendedLifetime(owner) {}
                    values.append(value)
                }
            }
            upstream.send(1)
            upstream.send(completion: .finished)
            upstream.send(2)
            #expect(values == [1])
            #expect(upstream.subscription.cancelCount == 0)
        }
        #expect(returned)
        #expect(ownerWentAway.isMarked)
    }

    @Test func sinkCancelReleasingTheOwnerOfItsTokenDoesNotDeadlock() {
        let ownerWentAway = Witness()
        let returned = returnsWithoutDeadlock {
            let upstream = DrivenPublisher<Int, Never>()
            let sink: Subscribers.Sink<Int, Never>
            do {
                let owner = TokenOwner(onDeinit: { ownerWentAway.mark() })
                sink = Subscribers.Sink(
                    receiveCompletion: { _ in }, receiveValue: { _ in withExtendedLifetime(owner) {} })
                owner.token = AnyCancellable(sink)
            }
            upstream.subscribe(sink)
            sink.cancel()
            #expect(upstream.subscription.cancelCount == 1)
        }
        #expect(returned)
        #expect(ownerWentAway.isMarked)
    }

    // MARK: ReducingSubscription

    @Test func reduceCompletionReleasingTheOwnerOfItsTokenDoesNotDeadlock() {
        let ownerWentAway = Witness()
        let result = Recorded<Int>()
        let returned = returnsWithoutDeadlock {
            let upstream = DrivenPublisher<Int, Never>()
            do {
                let owner = TokenOwner(onDeinit: { ownerWentAway.mark() })
                owner.token =
                    upstream
                    .reduce(0) { sum, value in withExtendedLifetime(owner) { sum + value } }
                    .sink { result.append($0) }
            }
            upstream.send(1)
            upstream.send(2)
            upstream.send(completion: .finished)
        }
        #expect(returned)
        #expect(ownerWentAway.isMarked)
        // The closure goes with the subscription, once the upstream lets go of it after the result was delivered, so
        // the owner's token cancels a finished sink.
        #expect(result.all == [3])
    }

    /// As in Combine, a cancelled `reduce` keeps its closure until the subscription goes: here the owner of the
    /// subscription's token, captured by the closure, goes when its token cancels — the subject and the subscriber
    /// let go of the subscription, so the subscription, its closure and the owner go in turn.
    @Test func reduceCancelThroughTheTokenOfTheOwnerItsClosureCapturesDoesNotDeadlock() {
        let ownerWentAway = Witness()
        let ownerWentAwayOnCancel = Witness()
        let returned = returnsWithoutDeadlock {
            let upstream = PassthroughSubject<Int, Never>()
            let downstream = TestSubscriber<Int, Never>(initialDemand: .max(1))
            weak var weakOwner: TokenOwner?
            do {
                let owner = TokenOwner(onDeinit: { ownerWentAway.mark() })
                weakOwner = owner
                upstream
                    .reduce(0) { sum, value in withExtendedLifetime(owner) { sum + value } }
                    .subscribe(downstream)
                owner.token = downstream.subscription.map { AnyCancellable($0) }
                downstream.releaseSubscription()
            }
            #expect(!ownerWentAway.isMarked)
            weakOwner?.token?.cancel()
            if ownerWentAway.isMarked { ownerWentAwayOnCancel.mark() }
            upstream.send(completion: .finished)
            #expect(downstream.events == [.subscription])
        }
        #expect(returned)
        #expect(ownerWentAwayOnCancel.isMarked)
    }

    // MARK: HandleEvents

    @Test func handleEventsCompletionReleasingTheOwnerOfItsTokenDoesNotDeadlock() {
        let ownerWentAway = Witness()
        let returned = returnsWithoutDeadlock {
            let upstream = DrivenPublisher<Int, Never>()
            do {
                let owner = TokenOwner(onDeinit: { ownerWentAway.mark() })
                owner.token =
                    upstream
                    .handleEvents(receiveOutput: { _ in withExtendedLifetime(owner) {} })
                    .sink { _ in }
            }
            upstream.send(1)
            upstream.send(completion: .finished)
        }
        #expect(returned)
        #expect(ownerWentAway.isMarked)
    }

    @Test func handleEventsCancelReleasingAnObjectThatCancelsAgainDoesNotDeadlock() {
        let ownerWentAway = Witness()
        let cancels = Recorded<String>()
        let returned = returnsWithoutDeadlock {
            let upstream = DrivenPublisher<Int, Never>()
            let downstream = TestSubscriber<Int, Never>()
            do {
                let owner = TokenOwner(onDeinit: { ownerWentAway.mark() })
                upstream
                    .handleEvents(
                        receiveOutput: { _ in withExtendedLifetime(owner) {} },
                        receiveCancel: { cancels.append("cancel") }
                    )
                    .subscribe(downstream)
                owner.token = downstream.subscription.map { AnyCancellable($0) }
            }
            downstream.cancel()
            #expect(upstream.subscription.cancelCount == 1)
        }
        #expect(returned)
        #expect(ownerWentAway.isMarked)
        #expect(cancels.all == ["cancel"])
    }
}

extension ReleaseOutsideLockTests {
    /// A flag set from another thread.
    final class Witness: @unchecked Sendable { // `lock` guards `marked`
        private let lock = TestLock()
        private var marked = false

        func mark() { lock.withLock { marked = true } }

        var isMarked: Bool { lock.withLock { marked } }
    }

    /// Values appended from another thread.
    final class Recorded<Value>: @unchecked Sendable { // `lock` guards `values`
        private let lock = TestLock()
        private var values: [Value] = []

        func append(_ value: Value) { lock.withLock { values.append(value) } }

        var all: [Value] { lock.withLock { values } }
    }
}

/// A subscription cancelled from outside (through the subscription itself, as an `AnyCancellable` made from it does)
/// releases its downstream; when the downstream's `deinit` cancels the subscription again, that must not happen under
/// the subscription's lock.
@Suite("The downstream is released outside the lock")
struct DownstreamReleaseOutsideLockTests {
    // `dropFirst`, `collect(_:)`, `replaceEmpty`, `replaceError`, the reducing operators (`reduce`, `first`, …),
    // `tryMap`, `drop(while:)`, `output(in:)`, `encode` and `decode` are not here: as Combine's, their subscriptions
    // keep the downstream after a cancel, so there is no release to check.
    @Test(arguments: [
        "Print", "Just", "HandleEvents", "Sequence", "Record", "Optional", "Result", "Future",
    ])
    func cancelReleasingADownstreamThatCancelsAgainDoesNotDeadlock(operator name: String) {
        let outcome: (returned: Bool, subscriberWentAway: Bool)
        switch name {
        case "Print":
            outcome = cancelReleasingACancellingSubscriber {
                DrivenPublisher<Int, Never>().print("", to: DiscardingStream())
            }
        case "Just":
            outcome = cancelReleasingACancellingSubscriber { Just(1) }
        case "HandleEvents":
            outcome = cancelReleasingACancellingSubscriber { DrivenPublisher<Int, Never>().handleEvents() }
        case "Sequence":
            outcome = cancelReleasingACancellingSubscriber { [1, 2, 3].publisher }
        case "Record":
            outcome = cancelReleasingACancellingSubscriber {
                Record<Int, Never>(output: [1, 2], completion: .finished)
            }
        case "Optional":
            outcome = cancelReleasingACancellingSubscriber { Optional(1).publisher }
        case "Result":
            outcome = cancelReleasingACancellingSubscriber { Result<Int, TestError>.success(1).publisher }
        default: // "Future"
            outcome = cancelReleasingACancellingSubscriber { Future<Int, Never> { _ in } }
        }
        #expect(outcome.returned)
        // As in Combine, these keep their downstream for as long as their subscription lives: a cancel does not
        // release it, so this subscriber, which holds its subscription, stays.
        let keepsItsDownstream: Set = ["Print", "HandleEvents"]
        #expect(outcome.subscriberWentAway != keepsItsDownstream.contains(name))
    }
}

/// A stream that drops what `print(_:to:)` writes.
struct DiscardingStream: TextOutputStream {
    mutating func write(_ string: String) {}
}
