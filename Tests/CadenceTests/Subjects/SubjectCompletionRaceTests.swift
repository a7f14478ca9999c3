import Cadence
import Dispatch
import Foundation
import Testing

/// Records completions from any thread.
private final class ThreadSafeEventLog: @unchecked Sendable { // `lock` guards `storage`
    private let lock = TestLock()
    private var storage: [String] = []

    func record(_ event: String) {
        lock.withLock { storage.append(event) }
    }

    var events: [String] { lock.withLock { storage } }
}

/// Adversarial tests of the subjects' subscriptions (`Subjects/SubjectConduit.swift`): races between a value being
/// delivered on one thread and the completion sent on another.
@Suite("Subjects: a value racing the completion")
struct SubjectCompletionRaceTests {
    /// A completion sent while another thread is inside the subscriber's `receive(_:)` waits for it, then must still
    /// reach the subscriber: the delivering thread, on its way out, must not release the subscriber that the
    /// completion is waiting to reach.
    @Test(arguments: [false, true])
    func completionSentDuringADeliveryOnAnotherThreadStillArrives(currentValue: Bool) {
        for _ in 0..<5 {
            let recorder = ThreadSafeEventLog()
            let inside = DispatchSemaphore(value: 0)
            let subscriber = SubjectsClosureSubscriber<Int, Never>(
                onValue: { value in
                    recorder.record("value(\(value))")
                    inside.signal()
                    usleep(20_000) // let the completion's thread block on the delivery
                    return .none
                },
                onCompletion: { _ in recorder.record("finished") })
            let passthrough = PassthroughSubject<Int, Never>()
            let current = CurrentValueSubject<Int, Never>(0)
            if currentValue {
                current.subscribe(subscriber)
                inside.wait() // the replay of the current value
            } else {
                passthrough.subscribe(subscriber)
            }
            let sender = SubjectsSendableBox(currentValue ? AnySubscriber(current) : AnySubscriber(passthrough))
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                _ = sender.value.receive(1)
                done.signal()
            }
            inside.wait()
            sender.value.receive(completion: .finished)
            done.wait()
            let expected = currentValue ? ["value(0)", "value(1)", "finished"] : ["value(1)", "finished"]
            #expect(recorder.events == expected)
        }
    }

    /// The same race where the completion wins the flag but the value's thread takes the delivery lock first and
    /// finds the subscription terminated: it must leave the subscriber to the completion.
    @Test func completionIsNotLostToAValueThatFindsTheSubscriptionTerminated() {
        for _ in 0..<200 {
            let recorder = ThreadSafeEventLog()
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = SubjectsClosureSubscriber<Int, Never>(
                onValue: { _ in .none },
                onCompletion: { _ in recorder.record("finished") })
            subject.subscribe(subscriber)
            let box = SubjectsSendableBox(subject)
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 {
                    for value in 0..<50 { box.value.send(value) }
                } else {
                    box.value.send(completion: .finished)
                }
            }
            #expect(recorder.events == ["finished"])
        }
    }

    /// A `CurrentValueSubject` subscriber that still has demand once the sends and requests racing on two threads
    /// are over must have received the final value: a request that comes while a send finds no demand must either
    /// let that send deliver or replay the current value itself, never neither. (The window, between a send's failed
    /// take of demand and its marking the value missed, is a few instructions wide: this guard rarely catches a
    /// regression, and did not catch the original defect, which was found by reading.)
    @Test func aRequestRacingASendThatFoundNoDemandDoesNotStrandTheCurrentValue() {
        var stranded = 0
        for _ in 0..<300 {
            let subject = CurrentValueSubject<Int, Never>(0)
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            subject.subscribe(subscriber)
            let box = SubjectsSendableBox(subject)
            let requests = 100
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 {
                    for value in 1...requests { box.value.send(value) }
                } else {
                    for _ in 0..<requests { subscriber.request(.max(1)) }
                }
            }
            let values = subscriber.values
            if values.count < requests, values.last != requests {
                stranded += 1
            }
        }
        #expect(stranded == 0)
    }
}
