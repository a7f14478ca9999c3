import Cadence
import Testing

/// Operators that buffer values for a downstream without demand let those values go outside their lock when a
/// failure or an overflow drops them: a value's deinitialiser may call straight back into the subscription.
@Suite("Dropped buffered values are released outside the lock")
struct BufferedValueReleaseOutsideLockTests {
    @Test func flatMapUpstreamFailureReleasesBufferedValuesOutsideTheLock() {
        let upstream = DrivenPublisher<Int, TestError>()
        let inner = DrivenPublisher<CallbackOnDeinit, TestError>()
        let subscriber = TestSubscriber<CallbackOnDeinit, TestError>(initialDemand: .none)
        upstream.flatMap { _ in inner }.subscribe(subscriber)
        upstream.send(0)
        let outcome = droppingACallingBackValue(subscriber: subscriber, buffer: { inner.send($0) }) {
            upstream.send(completion: .failure(.oops))
        }
        #expect(outcome.returned)
        #expect(outcome.valueWentAway)
        #expect(subscriber.completions == [.failure(.oops)])
    }

    @Test func flatMapInnerFailureReleasesBufferedValuesOutsideTheLock() {
        let upstream = DrivenPublisher<Int, TestError>()
        let inners = [DrivenPublisher<CallbackOnDeinit, TestError>(), DrivenPublisher()]
        let subscriber = TestSubscriber<CallbackOnDeinit, TestError>(initialDemand: .none)
        upstream.flatMap { inners[$0] }.subscribe(subscriber)
        upstream.send(0)
        upstream.send(1)
        let outcome = droppingACallingBackValue(subscriber: subscriber, buffer: { inners[0].send($0) }) {
            inners[1].send(completion: .failure(.oops))
        }
        #expect(outcome.returned)
        #expect(outcome.valueWentAway)
        #expect(subscriber.completions == [.failure(.oops)])
    }

    @Test func switchToLatestFailureReleasesQueuedValuesOutsideTheLock() {
        // switchToLatest queues a value only while another is being delivered (one beyond the demand traps), so the
        // downstream's first value sends the calling-back value, which queues, and the failure that drops it.
        let upstream = DrivenPublisher<DrivenPublisher<CallbackOnDeinit, TestError>, TestError>()
        let inner = DrivenPublisher<CallbackOnDeinit, TestError>()
        let subscriberBox = LockedBox<TestSubscriber<CallbackOnDeinit, TestError>?>(nil)
        let wentAway = LockedBox(false)
        let isFirst = LockedBox(true)
        let subscriber = TestSubscriber<CallbackOnDeinit, TestError>(
            initialDemand: .max(2),
            onValue: { _ in
                guard
                    isFirst.mutate({ first in
                        defer { first = false }
                        return first
                    })
                else { return .none }
                inner.send(
                    CallbackOnDeinit {
                        subscriberBox.value?.subscription?.request(.max(1))
                        wentAway.mutate { $0 = true }
                    })
                upstream.send(completion: .failure(.oops))
                return .none
            })
        subscriberBox.mutate { $0 = subscriber }
        upstream.switchToLatest().subscribe(subscriber)
        upstream.send(inner)
        let returned = returnsWithoutDeadlock(within: 5) {
            inner.send(CallbackOnDeinit {})
        }
        #expect(returned)
        #expect(wentAway.value)
        #expect(subscriber.completions == [.failure(.oops)])
        #expect(subscriber.values.count == 1)
    }

    @Test func bufferFailureReleasesBufferedValuesOutsideTheLock() {
        let upstream = DrivenPublisher<CallbackOnDeinit, TestError>()
        let subscriber = TestSubscriber<CallbackOnDeinit, TestError>(initialDemand: .none)
        upstream.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest).subscribe(subscriber)
        let outcome = droppingACallingBackValue(subscriber: subscriber, buffer: { upstream.send($0) }) {
            upstream.send(completion: .failure(.oops))
        }
        #expect(outcome.returned)
        #expect(outcome.valueWentAway)
        #expect(subscriber.completions == [.failure(.oops)])
    }

    @Test func mergeFailureReleasesBufferedValuesOutsideTheLock() {
        let first = DrivenPublisher<CallbackOnDeinit, TestError>()
        let second = DrivenPublisher<CallbackOnDeinit, TestError>()
        let subscriber = TestSubscriber<CallbackOnDeinit, TestError>(initialDemand: .none)
        first.merge(with: second).subscribe(subscriber)
        let outcome = droppingACallingBackValue(subscriber: subscriber, buffer: { first.send($0) }) {
            second.send(completion: .failure(.oops))
        }
        #expect(outcome.returned)
        #expect(outcome.valueWentAway)
        #expect(subscriber.completions == [.failure(.oops)])
    }

    @Test func bufferDroppingTheOldestValueReleasesItOutsideTheLock() {
        let upstream = DrivenPublisher<CallbackOnDeinit, TestError>()
        let subscriber = TestSubscriber<CallbackOnDeinit, TestError>(initialDemand: .none)
        upstream.buffer(size: 1, prefetch: .byRequest, whenFull: .dropOldest).subscribe(subscriber)
        let newest = UncheckedSendable(CallbackOnDeinit {})
        let outcome = droppingACallingBackValue(subscriber: subscriber, buffer: { upstream.send($0) }) {
            upstream.send(newest.value)
        }
        #expect(outcome.returned)
        #expect(outcome.valueWentAway)
        guard outcome.returned else { return } // the subscription's lock is held for good
        subscriber.request(.max(1))
        #expect(subscriber.values.map(ObjectIdentifier.init) == [ObjectIdentifier(newest.value)])
    }
}
