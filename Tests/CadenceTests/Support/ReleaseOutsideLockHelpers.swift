import Cadence
import Foundation

/// Runs `body` on a thread of its own and tells whether it returned within `seconds`.
///
/// A body that deadlocks (a lock taken a second time by the thread that holds it) leaves that thread blocked for the
/// rest of the run; the test gets `false` instead of hanging.
func returnsWithoutDeadlock(within seconds: Double = 10, _ body: @escaping @Sendable () -> Void) -> Bool {
    let returned = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        returned.signal()
    }
    thread.start()
    return returned.wait(timeout: .now() + seconds) == .success
}

/// An object that owns the token of a subscription whose closures capture it: the usual retain cycle that a
/// completion or a cancellation breaks by releasing the closures.
final class TokenOwner {
    var token: AnyCancellable?
    /// Set from `deinit`, so a test can see that the owner went away.
    let onDeinit: () -> Void

    init(onDeinit: @escaping () -> Void = {}) {
        self.onDeinit = onDeinit
    }

    deinit {
        onDeinit()
    }
}

/// A subscriber that cancels its subscription when it goes away, a common way to tie a subscription's life to an
/// object's. It requests nothing and hands the subscription to `onSubscribe`.
final class CancelOnDeinitSubscriber<Input, Failure: Error>: Subscriber {
    private var subscription: (any Subscription)?
    private let onSubscribe: (any Subscription) -> Void
    private let onDeinit: () -> Void

    init(onSubscribe: @escaping (any Subscription) -> Void, onDeinit: @escaping () -> Void) {
        self.onSubscribe = onSubscribe
        self.onDeinit = onDeinit
    }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        onSubscribe(subscription)
    }

    func receive(_ input: Input) -> Subscribers.Demand { .none }

    func receive(completion: Subscribers.Completion<Failure>) {}

    deinit {
        subscription?.cancel()
        onDeinit()
    }
}

/// Subscribes a `CancelOnDeinitSubscriber` to the publisher, keeps only the subscription it got, and cancels
/// that subscription from outside: the subscription releases the subscriber, whose `deinit` cancels it again.
/// Returns whether that returned (rather than deadlocked) and whether the subscriber went away.
func cancelReleasingACancellingSubscriber<P: Publisher & SendableMetatype>(
    _ makePublisher: @escaping @Sendable () -> P
) -> (returned: Bool, subscriberWentAway: Bool) {
    let wentAway = ThreadSafeFlag()
    let returned = returnsWithoutDeadlock {
        var subscription: (any Subscription)?
        makePublisher().subscribe(
            CancelOnDeinitSubscriber<P.Output, P.Failure>(
                onSubscribe: { subscription = $0 }, onDeinit: { wentAway.set() }))
        subscription?.cancel()
        subscription = nil
    }
    return (returned, wentAway.isSet)
}

/// A flag set from another thread.
final class ThreadSafeFlag: @unchecked Sendable { // `lock` guards `value`
    private let lock = TestLock()
    private var value = false

    func set() { lock.withLock { value = true } }

    var isSet: Bool { lock.withLock { value } }
}
