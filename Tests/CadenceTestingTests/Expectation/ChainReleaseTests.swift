import CadenceTesting
import Testing

/// A chain lets go of its subscription when nothing more can be learnt from it (issue 20 item 2): at once when it
/// said `thenIgnoreRest()`, failed, or reported events no step consumed; when the scope that catches late events
/// finishes otherwise; never while it may still catch a late event outside such a scope.
@Suite struct ChainReleaseTests {
    /// A long-lived subject, and how many subscriptions to it were cancelled.
    final class Bus: @unchecked Sendable { // used on the test's thread only
        let subject = PassthroughSubject<Int, Never>()
        var subscriptions = 0
        var cancels = 0

        var publisher: AnyPublisher<Int, Never> {
            subject.handleEvents(
                receiveSubscription: { [unowned self] _ in subscriptions += 1 },
                receiveCancel: { [unowned self] in cancels += 1 }
            ).eraseToAnyPublisher()
        }

        /// Subscriptions still attached.
        var live: Int { subscriptions - cancels }
    }

    @Test func twoHundredChainsThatIgnoreTheRestLetGoAtOnce() {
        let bus = Bus()
        for value in 0..<200 {
            let expectation = expect(bus.publisher)
            bus.subject.send(value)
            expectation.toEmit(value).thenIgnoreRest()
        }
        #expect(bus.subscriptions == 200)
        #expect(bus.live == 0)
    }

    @Test func aFailedChainLetsGo() {
        let bus = Bus()
        let failures = recordingFailures { expect(bus.publisher).toEmit(1) }
        #expect(
            failures.map { String($0.message.prefix { $0 != "\n" }) } == [
                "toEmit(1) failed: the value (1) never arrived: nothing more was delivered synchronously, and there is no "
                    + "virtual clock to advance (pass one with on:, or bind VirtualClock.current)."
            ])
        #expect(bus.live == 0)
    }

    @Test func aChainThatReportedUnconsumedEventsLetsGo() {
        let bus = Bus()
        let failures = recordingFailures {
            let expectation = expect(bus.publisher)
            bus.subject.send(1)
            bus.subject.send(2)
            expectation.toEmit(1)
        }
        #expect(failures.count == 1)
        #expect(bus.live == 0)
    }

    @Test func aPassingChainOutsideAScopeStaysToCatchALateEvent() {
        let bus = Bus()
        let failures = recordingFailures {
            do {
                let expectation = expect(bus.publisher)
                bus.subject.send(1)
                expectation.toEmit(1)
            }
            #expect(bus.live == 1)
            bus.subject.send(2)
        }
        #expect(
            failures.map { String($0.message.prefix { $0 != "\n" }) } == [
                "expect(AnyPublisher<Int, Never>) received 1 event after its chain had ended: 2."
            ])
    }

    @Test func aPassingChainInWithVirtualTimeLetsGoWhenItReturns() {
        let bus = Bus()
        withVirtualTime { _ in
            let expectation = expect(bus.publisher)
            bus.subject.send(1)
            expectation.toEmit(1)
            #expect(bus.live == 1)
        }
        #expect(bus.subscriptions == 1)
        #expect(bus.live == 0)
        bus.subject.send(2) // nobody is listening: nothing to report, nothing kept
    }
}
