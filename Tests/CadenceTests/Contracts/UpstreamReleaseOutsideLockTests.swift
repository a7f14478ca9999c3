import Cadence
import Testing

/// A subscriber that ends must let go of its upstream subscription after leaving its lock: the subscription's
/// deinitialiser may call straight back into the subscriber.
@Suite("Upstream subscriptions are released outside the lock")
struct UpstreamReleaseOutsideLockTests {
    /// A subscription that runs `onDeinit` when its last reference goes.
    final class CallingBackSubscription: Subscription, @unchecked Sendable { // immutable after init
        let onDeinit: () -> Void

        init(onDeinit: @escaping () -> Void) {
            self.onDeinit = onDeinit
        }

        deinit { onDeinit() }

        func request(_ demand: Subscribers.Demand) {}

        func cancel() {}
    }

    /// Hands its subscriber a subscription it keeps no reference to, then finishes at once.
    struct FinishingAtOnce: Publisher {
        typealias Output = Int
        typealias Failure = Never

        let onSubscriptionDeinit: () -> Void

        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
            subscriber.receive(subscription: CallingBackSubscription(onDeinit: onSubscriptionDeinit))
            subscriber.receive(completion: .finished)
        }
    }

    final class Target {
        var value = 0
    }

    @Test func assignReleasesTheUpstreamAfterUnlocking() {
        let returned = returnsWithoutDeadlock {
            let assign = UncheckedSendable(Subscribers.Assign(object: Target(), keyPath: \Target.value))
            FinishingAtOnce { assign.value.cancel() }.subscribe(assign.value)
        }
        #expect(returned)
    }
}
