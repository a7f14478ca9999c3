import Cadence
import Testing

/// Adversarial tests of `Subscribers.Demand`'s arithmetic at its edges, against what Combine does (as OpenCombine's
/// tests, run against Combine, record it).
@Suite("Demand arithmetic at its edges")
struct DemandArithmeticEdgeTests {
    /// Subtracting a negative number past `Int.max` overflows in Combine, which then gives `.max(0)`, not
    /// `.unlimited`.
    @Test func subtractingANegativeNumberThatOverflowsGivesNone() {
        let largest = Subscribers.Demand.max(Int.max)
        #expect(largest - (-1) == .none)
        #expect(Subscribers.Demand.max(1) - Int.min == .none)
        var demand = largest
        demand -= -1
        #expect(demand == .none)
        #expect(Subscribers.Demand.max(Int.max - 1) - (-1) == .max(Int.max))
        #expect(Subscribers.Demand.unlimited - (-1) == .unlimited)
    }

    /// Adding past `Int.max` still saturates to `.unlimited`, and `.unlimited` absorbs even `Int.min`.
    @Test func additionOverflowIsUnlimited() {
        #expect(Subscribers.Demand.max(Int.max) + 1 == .unlimited)
        var demand = Subscribers.Demand.unlimited
        demand += Int.min
        #expect(demand == .unlimited)
    }
}
