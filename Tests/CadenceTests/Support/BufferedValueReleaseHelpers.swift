import Cadence

/// A value that runs `action` when it goes away: buffered inside an operator, it shows whether the operator lets its
/// buffered values go while holding its lock (an `action` that calls back into the subscription would deadlock).
final class CallbackOnDeinit {
    private let action: () -> Void

    init(_ action: @escaping () -> Void) {
        self.action = action
    }

    deinit {
        action()
    }
}

/// Has `buffer` make an operator buffer a value whose deinitialiser requests more from `subscriber`'s subscription,
/// then runs `drop`, which makes the operator drop that value (a failure, an overflow). Returns whether `drop`
/// returned (it deadlocks when the value is let go under the operator's lock), and whether the value went away.
func droppingACallingBackValue(
    subscriber: TestSubscriber<CallbackOnDeinit, TestError>,
    buffer: (CallbackOnDeinit) -> Void,
    drop: @escaping @Sendable () -> Void
) -> (returned: Bool, valueWentAway: Bool) {
    let wentAway = TestLock()
    nonisolated(unsafe) var released = false
    do {
        buffer(
            CallbackOnDeinit { [subscriber] in
                subscriber.subscription?.request(.max(1))
                wentAway.withLock { released = true }
            })
    }
    let returned = returnsWithoutDeadlock(within: 5, drop)
    return (returned, wentAway.withLock { released })
}
