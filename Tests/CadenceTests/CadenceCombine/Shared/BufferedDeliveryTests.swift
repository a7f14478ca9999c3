// Internal machinery, reached with @testable, which only debug builds allow.
#if DEBUG && !canImport(Combine)
@testable import CadenceCombine
import Cadence
import Testing

@Suite("BufferedDelivery")
struct BufferedDeliveryTests {
    @Test func aValueGoesStraightOutWithDemandAndNobodyDelivering() {
        var delivery = BufferedDelivery<String>(token: DeliveryToken())
        let becameUnlimited = delivery.add(.max(2))
        #expect(becameUnlimited == false)
        guard case .deliverNow(let unlimited) = delivery.arrive("a", from: 0) else {
            Issue.record("expected the value to go straight out")
            return
        }
        #expect(unlimited == false)
        #expect(delivery.isDelivering)
        #expect(delivery.demand == .max(1))
        #expect(delivery.buffer.isEmpty)
    }

    @Test func aValueWithoutDemandWaitsAndTheTokenStaysFree() {
        var delivery = BufferedDelivery<String>(token: DeliveryToken())
        guard case .wait = delivery.arrive("a", from: 3) else {
            Issue.record("expected the value to wait")
            return
        }
        #expect(delivery.isDelivering == false)
        #expect(delivery.buffer.elements.map(\.value) == ["a"])
        #expect(delivery.buffer.elements.map(\.source) == [3])
    }

    @Test func aValueArrivingWhileAnotherThreadDeliversWaitsBehindIt() {
        var delivery = BufferedDelivery<String>(token: DeliveryToken())
        _ = delivery.add(.max(5))
        let tookFree = delivery.takeToken()
        #expect(tookFree)
        let tookHeld = delivery.takeToken()
        #expect(tookHeld == false)
        guard case .wait = delivery.arrive("a", from: 1) else {
            Issue.record("expected the value to wait for the token holder")
            return
        }
        #expect(delivery.demand == .max(5))
        let next = delivery.next()
        #expect(next?.value == "a")
        #expect(delivery.demand == .max(4))
    }

    @Test func aValueBehindBufferedOnesMakesTheCallerDrainInOrder() {
        var delivery = BufferedDelivery<String>(token: DeliveryToken())
        _ = delivery.arrive("a", from: 0)
        _ = delivery.add(.max(1))
        guard case .drain = delivery.arrive("b", from: 1) else {
            Issue.record("expected the caller to drain")
            return
        }
        #expect(delivery.isDelivering)
        let first = delivery.next()
        #expect(first?.value == "a")
        #expect(first?.source == 0)
        #expect(first?.refill == true)
        let blocked = delivery.next()
        #expect(blocked == nil) // no demand left for "b"
        delivery.releaseToken()
        let tookAgain = delivery.takeToken()
        #expect(tookAgain)
    }

    @Test func unlimitedDemandIsNotTakenAndAsksForNoRefill() {
        var delivery = BufferedDelivery<Int>(token: DeliveryToken())
        _ = delivery.arrive(1, from: 0)
        let unlimitedAfterOne = delivery.add(.max(1))
        #expect(unlimitedAfterOne == false)
        let becameUnlimited = delivery.add(.unlimited)
        #expect(becameUnlimited == true)
        let unlimitedAgain = delivery.add(.max(1))
        #expect(unlimitedAgain == false)
        let next = delivery.next()
        #expect(next?.value == 1)
        #expect(next?.refill == false)
        #expect(delivery.demand == .unlimited)
        guard case .deliverNow(let unlimited) = delivery.arrive(2, from: 0) else {
            Issue.record("expected the value to go straight out")
            return
        }
        #expect(unlimited)
    }

    @Test func takeBufferHandsTheValuesBackAndEmptiesTheBuffer() {
        var delivery = BufferedDelivery<Int>(token: DeliveryToken())
        _ = delivery.arrive(1, from: 0)
        _ = delivery.arrive(2, from: 1)
        let taken = delivery.takeBuffer()
        #expect(taken.elements.map(\.value) == [1, 2])
        #expect(delivery.buffer.isEmpty)
        _ = delivery.arrive(3, from: 0)
        delivery.removeBuffered()
        #expect(delivery.buffer.isEmpty)
    }
}

#endif
