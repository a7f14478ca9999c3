import Cadence
import Dispatch
import Testing

/// A test scheduler made outside `.virtualTime` or `withVirtualTime` is released once nothing uses it, even when a
/// cancelled operator left work on its clock (issue 20 item 7): the work it left behind does not keep the operator,
/// and through it the scheduler and its clock, alive.
@Suite struct ClockReleaseTests {
    /// The operators that schedule work for later on the scheduler they are given.
    enum Operator: String, CaseIterable, Sendable {
        case delay, throttle, timeout, receiveOn, debounce

        func subscribe(
            _ subject: PassthroughSubject<Int, Never>, on scheduler: TestSchedulerOf<DispatchQueue>
        ) -> AnyCancellable {
            switch self {
            case .delay: subject.delay(for: .seconds(1), scheduler: scheduler).sink { _ in }
            case .throttle: subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).sink { _ in }
            case .timeout: subject.timeout(.seconds(1), scheduler: scheduler).sink { _ in }
            case .receiveOn: subject.receive(on: scheduler).sink { _ in }
            case .debounce: subject.debounce(for: .seconds(1), scheduler: scheduler).sink { _ in }
            }
        }
    }

    #if !canImport(Combine) // Cadence's operators; Apple's keep their pending work's subscription until it runs
    @Test(arguments: Operator.allCases)
    func aCancelledOperatorDoesNotKeepItsSchedulersClockAlive(operator: Operator) {
        weak var weakClock: VirtualClock?
        do {
            let scheduler = DispatchQueue.test
            weakClock = scheduler.clock
            let subject = PassthroughSubject<Int, Never>()
            let cancellable = `operator`.subscribe(subject, on: scheduler)
            subject.send(1)
            subject.send(2)
            cancellable.cancel()
        }
        #expect(weakClock == nil)
    }
    #endif

    /// A subscriber that requests everything and keeps no reference to its subscription: only the work the operator
    /// scheduled keeps the operator alive.
    final class Forgetful: Subscriber, @unchecked Sendable { // used on the test's thread only
        typealias Input = Int
        typealias Failure = Never
        var received: [Int] = []
        var finished = false

        func receive(subscription: any Subscription) { subscription.request(.unlimited) }
        func receive(_ input: Int) -> Subscribers.Demand {
            received.append(input)
            return .none
        }
        func receive(completion: Subscribers.Completion<Never>) { finished = true }
    }

    /// As in Combine, work scheduled and not cancelled still keeps its subscription alive, and runs.
    @Test func pendingWorkStillDeliversWhenNothingElseHoldsTheSubscription() {
        let scheduler = DispatchQueue.test
        let received = Forgetful()
        Just(1).receive(on: scheduler).subscribe(received)
        let delayed = Forgetful()
        Just(2).delay(for: .seconds(1), scheduler: scheduler).subscribe(delayed)
        scheduler.advance(by: .seconds(1))
        #expect(received.received == [1] && received.finished)
        #expect(delayed.received == [2] && delayed.finished)
    }
}
