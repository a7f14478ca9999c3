import Cadence
import Foundation
import Testing

@Suite("Subscribers.Demand")
struct DemandTests {
    typealias Demand = Subscribers.Demand

    @Test func namedValues() {
        #expect(Demand.none == .max(0))
        #expect(Demand.none.max == 0)
        #expect(Demand.max(3).max == 3)
        #expect(Demand.unlimited.max == nil)
        #expect(Demand.unlimited.description == "unlimited")
        #expect(Demand.max(7).description == "max(7)")
    }

    @Test func additionSaturates() {
        #expect(Demand.max(2) + .max(3) == .max(5))
        #expect(Demand.max(2) + .unlimited == .unlimited)
        #expect(Demand.unlimited + .max(2) == .unlimited)
        #expect(Demand.max(Int.max) + .max(1) == .unlimited)
        #expect(Demand.max(Int.max) + 1 == .unlimited)
        #expect(Demand.max(2) + 3 == .max(5))
        #expect(Demand.max(2) + -5 == .none)
        #expect(Demand.unlimited + -5 == .unlimited)
        var demand = Demand.max(1)
        demand += .max(1)
        demand += 1
        #expect(demand == .max(3))
    }

    @Test func subtractionClampsAtZero() {
        #expect(Demand.max(5) - .max(3) == .max(2))
        #expect(Demand.max(3) - .max(5) == .none)
        #expect(Demand.unlimited - .max(5) == .unlimited)
        #expect(Demand.unlimited - .unlimited == .unlimited)
        #expect(Demand.max(5) - .unlimited == .none)
        #expect(Demand.max(5) - 2 == .max(3))
        #expect(Demand.max(5) - -2 == .max(7))
        var demand = Demand.max(4)
        demand -= .max(1)
        demand -= 1
        #expect(demand == .max(2))
    }

    @Test func multiplicationSaturates() {
        #expect(Demand.max(3) * 4 == .max(12))
        #expect(Demand.unlimited * 4 == .unlimited)
        #expect(Demand.max(Int.max / 2 + 1) * 2 == .unlimited)
        #expect(Demand.max(3) * 0 == .none)
        #expect(Demand.max(3) * -1 == .none)
        var demand = Demand.max(2)
        demand *= 3
        #expect(demand == .max(6))
    }

    @Test func comparisonsPutUnlimitedAboveEveryNumber() {
        #expect(Demand.max(1) < .max(2))
        #expect(Demand.max(Int.max) < .unlimited)
        #expect(Demand.unlimited > Int.max)
        #expect(Demand.unlimited != Int.max)
        #expect(Demand.max(3) == 3)
        #expect(3 == Demand.max(3))
        #expect(Demand.max(3) != -3)
        #expect(Demand.max(0) > -1)
        #expect(Demand.max(3) >= 3)
        #expect(Demand.max(3) <= 3)
        #expect(!(Demand.max(3) < 3))
        #expect(2 < Demand.max(3))
        #expect(4 > Demand.max(3))
        #expect(3 <= Demand.unlimited)
        #expect(!(3 >= Demand.unlimited))
    }

    @Test func codableRoundTrip() throws {
        let demands: [Demand] = [.none, .max(42), .unlimited]
        let data = try JSONEncoder().encode(demands)
        #expect(try JSONDecoder().decode([Demand].self, from: data) == demands)
    }

    /// As in Combine, a number above `.unlimited`'s decodes as `.unlimited`, and a negative one does not decode.
    @Test func decodingOutOfRangeNumbers() throws {
        let tooBig = Data("[\(UInt(Int.max) + 2)]".utf8)
        #expect(try JSONDecoder().decode([Demand].self, from: tooBig) == [.unlimited])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Demand].self, from: Data("[-1]".utf8)) }
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func negativeMaxTrapsNamingTheRule() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Subscribers.Demand.max(-1)
        }
        #expect(result?.standardErrorText.contains("Subscribers.Demand.max(-1): a demand must not be negative") == true)
    }
    #endif
}
