// Internal machinery, reached with @testable, which only debug builds allow.
#if DEBUG && !canImport(Combine)
@testable import CadenceCombine
import Cadence
import Testing

@Suite("BufferStateMachine")
struct BufferStateMachineTests {
    typealias Machine = BufferStateMachine<TestSubscriber<Int, TestError>>

    static func subscribed(
        size: Int = 2, whenFull: Publishers.BufferingStrategy<TestError> = .dropNewest
    ) -> (Machine, DedupeIdleSubscription) {
        var machine = Machine(downstream: TestSubscriber(), size: size, whenFull: whenFull)
        let upstream = DedupeIdleSubscription()
        _ = machine.receive(subscription: upstream)
        return (machine, upstream)
    }

    /// Runs a drain from `first` to its end, answering `more` to each delivery; returns the values delivered and the
    /// step that ended it.
    static func drain(
        _ machine: inout Machine, from first: Machine.DrainStep?, answering more: Subscribers.Demand = .none
    )
        -> (delivered: [Int], last: Machine.DrainStep?)
    {
        var delivered: [Int] = []
        var step = first
        while case .deliver(_, let value) = step {
            delivered.append(value)
            step = machine.delivered(more)
        }
        return (delivered, step)
    }

    @Test func aSecondSubscriptionIsRefused() {
        var (machine, _) = Self.subscribed()
        let result1 = machine.receive(subscription: DedupeIdleSubscription())
        #expect(result1 == nil)
    }

    @Test func valuesWaitForDemandAndTheEmitterStopsWhenItRunsOut() {
        var (machine, upstream) = Self.subscribed()
        guard case .drain(let first, nil) = machine.receive(1) else {
            Issue.record("expected the first value to make its caller the emitter")
            return
        }
        guard case .stop(let asked) = first else {
            Issue.record("expected nothing to deliver without demand")
            return
        }
        #expect(asked?.combineIdentifier == upstream.combineIdentifier)
        #expect(machine.isEmitting == false)
        #expect(machine.values.elements == [1])

        let (delivered, last) = Self.drain(&machine, from: machine.request(.max(1)))
        #expect(delivered == [1])
        guard case .stop = last else {
            Issue.record("expected the emitter to stop")
            return
        }
        #expect(machine.demand == .none)
    }

    @Test func anEventWhileAnotherCallerEmitsOnlyUpdatesTheState() {
        var (machine, _) = Self.subscribed(size: 3)
        _ = machine.receive(1)
        guard case .deliver(_, 1) = machine.request(.max(1)) else {
            Issue.record("expected the request to deliver the buffered value")
            return
        }
        #expect(machine.isEmitting)
        guard case .none(nil) = machine.receive(2) else {
            Issue.record("expected the value to wait for the emitter")
            return
        }
        let result2 = machine.request(.max(1))
        #expect(result2 == nil)
        let result3 = machine.receive(completion: .finished)
        #expect(result3 == nil)
        let (delivered, last) = Self.drain(&machine, from: machine.delivered(.none))
        #expect(delivered == [2])
        #expect(machine.demand == .none)
        guard case .stop(nil) = last else {
            Issue.record("expected the emitter to stop without asking the completed upstream")
            return
        }
    }

    @Test func dropNewestKeepsTheBufferAndDropOldestHandsTheOldestBack() {
        var (newest, _) = Self.subscribed(size: 1, whenFull: .dropNewest)
        _ = newest.receive(1)
        _ = newest.receive(2)
        #expect(newest.values.elements == [1])

        var (oldest, _) = Self.subscribed(size: 1, whenFull: .dropOldest)
        _ = oldest.receive(1)
        guard case .drain(_, let dropped) = oldest.receive(2) else {
            Issue.record("expected the caller to become the emitter")
            return
        }
        #expect(dropped == 1)
        #expect(oldest.values.elements == [2])
    }

    @Test func aCustomErrorWaitsForTheBufferedValuesTheDownstreamAskedFor() {
        var (machine, upstream) = Self.subscribed(size: 2, whenFull: .customError { TestError.oops })
        _ = machine.receive(1)
        _ = machine.receive(2)
        guard case .overflow(let makeError) = machine.receive(3) else {
            Issue.record("expected the overflow to ask for the custom error")
            return
        }
        let cancelling = machine.overflowed(with: makeError())
        #expect(cancelling?.combineIdentifier == upstream.combineIdentifier)
        #expect(machine.terminal == .failure(.oops))
        let cancellingAgain = machine.overflowed(with: .oops)
        #expect(cancellingAgain == nil)
        guard case .none(nil) = machine.receive(4) else {
            Issue.record("expected a value after the overflow to be ignored")
            return
        }
        guard case .deliver(_, 1) = machine.request(.max(1)) else {
            Issue.record("expected the value asked for to go out before the failure")
            return
        }
        guard case .complete(_, .failure(.oops), let released, _) = machine.delivered(.none) else {
            Issue.record("expected the failure next, dropping the values nobody asked for")
            return
        }
        #expect(released.values.elements == [2])
        #expect(machine.downstream == nil)
        let afterFailure = machine.request(.max(1))
        #expect(afterFailure == nil)
    }

    @Test func finishedWaitsForAnEmptyBufferAndDemand() {
        var (machine, _) = Self.subscribed()
        _ = machine.receive(1)
        guard case .stop = machine.receive(completion: .finished) else {
            Issue.record("expected the completion to wait behind the buffered value")
            return
        }
        let (delivered, last) = Self.drain(&machine, from: machine.request(.max(1)))
        #expect(delivered == [1])
        guard case .stop(nil) = last else {
            Issue.record("expected the completion to wait for demand")
            return
        }
        guard case .complete(_, .finished, let released, false) = machine.request(.max(1)) else {
            Issue.record("expected the completion once the buffer is empty and there is demand")
            return
        }
        #expect(released.values.isEmpty)
        #expect(machine.status.isTerminal)
    }

    /// As in Combine: a value sent after the upstream finished, while that completion waits for demand, joins the
    /// buffer ahead of it.
    @Test func aValueAfterAWaitingFinishedCompletionIsStillBuffered() {
        var (machine, _) = Self.subscribed()
        _ = machine.receive(completion: .finished)
        _ = machine.receive(1)
        let (delivered, last) = Self.drain(&machine, from: machine.request(.max(2)))
        #expect(delivered == [1])
        guard case .complete(_, .finished, _, _) = last else {
            Issue.record("expected the completion after the buffered value")
            return
        }
    }

    @Test func cancellingHandsBackTheUpstreamAndTheBufferedValuesOnce() {
        var (machine, upstream) = Self.subscribed()
        _ = machine.receive(1)
        let cancelled = machine.cancel()
        #expect(cancelled?.previous.subscription?.combineIdentifier == upstream.combineIdentifier)
        #expect(cancelled?.dropped.elements == [1])
        #expect(machine.values.isEmpty)
        #expect(machine.downstream == nil)
        let result7 = machine.cancel()
        #expect(result7 == nil)
        let result8 = machine.request(.max(1))
        #expect(result8 == nil)
    }

    @Test func cancellingBeforeTheSubscriptionArrivedDoesNothing() {
        var machine = Machine(downstream: TestSubscriber(), size: 1, whenFull: .dropNewest)
        let result9 = machine.cancel()
        #expect(result9 == nil)
        let result10 = machine.receive(subscription: DedupeIdleSubscription())
        #expect(result10 != nil)
    }

    @Test func anEmitterThatFindsTheSubscriptionCancelledEnds() {
        var (machine, _) = Self.subscribed()
        _ = machine.receive(1)
        _ = machine.receive(2)
        guard case .deliver(_, 1) = machine.request(.max(2)) else {
            Issue.record("expected a delivery")
            return
        }
        _ = machine.cancel()
        guard case .ended = machine.delivered(.none) else {
            Issue.record("expected the emitter to end")
            return
        }
        #expect(machine.isEmitting == false)
    }
}

#endif
