import Cadence
import Testing

@Suite struct VirtualTimeTests {
    typealias Stride = VirtualTime.Stride

    @Test(arguments: [
        (Stride.seconds(2), Int64(2000)),
        (.seconds(-2), -2000),
        (.seconds(1.5), 1500),
        (.seconds(1.001), 1001),
        (.seconds(0.3), 300),
        (.seconds(1.1), 1100),
        (.seconds(0.0001), 1),
        (.seconds(-0.0015), -1),
        (.seconds(0.0), 0),
        (.milliseconds(7), 7),
        (.milliseconds(-7), -7),
        (.microseconds(1), 1),
        (.microseconds(1000), 1),
        (.microseconds(1001), 2),
        (.microseconds(-1), 0),
        (.microseconds(-1500), -1),
        (.nanoseconds(1), 1),
        (.nanoseconds(1_000_000), 1),
        (.nanoseconds(-1), 0),
        (.ticks(9), 9),
    ])
    func intervalsConvertToWholeTicksRoundingUp(stride: Stride, ticks: Int64) {
        #expect(stride.ticks == ticks)
        #expect(VirtualTime.virtualTicks(in: stride) == ticks)
    }

    @Test func conversionsSaturateAtTheBoundsOfTime() {
        #expect(Stride.seconds(Int.max).ticks == .max)
        #expect(Stride.seconds(Int.min).ticks == .min)
        #expect(Stride.seconds(Double.infinity).ticks == .max)
        #expect(Stride.seconds(-Double.infinity).ticks == .min)
        #expect(Stride.seconds(1e300).ticks == .max)
        #expect(Stride.seconds(Double.nan).ticks == 0)
    }

    @Test func strideArithmeticIsExactAndSaturates() {
        #expect(Stride.ticks(3) + .ticks(4) == .ticks(7))
        #expect(Stride.ticks(3) - .ticks(4) == .ticks(-1))
        #expect(Stride.ticks(3) * .ticks(4) == .ticks(12))
        #expect(-Stride.ticks(3) == .ticks(-3))
        var value = Stride.ticks(5)
        value += 2
        value -= 10
        value *= -2
        #expect(value == .ticks(6))
        value.negate()
        #expect(value == .ticks(-6))
        #expect(value.magnitude == 6)
        #expect(Stride(ticks: .max) + 1 == Stride(ticks: .max))
        #expect(Stride(ticks: .min) - 1 == Stride(ticks: .min))
        #expect(Stride(ticks: .min) + -1 == Stride(ticks: .min))
        #expect(Stride(ticks: .max) - -1 == Stride(ticks: .max))
        #expect(Stride(ticks: .max) * 2 == Stride(ticks: .max))
        #expect(Stride(ticks: .max) * -2 == Stride(ticks: .min))
        #expect(-Stride(ticks: .min) == Stride(ticks: .max))
        #expect(Stride(exactly: 12) == .ticks(12))
        #expect(Stride(exactly: UInt64.max) == nil)
        #expect(Stride.ticks(1) < .ticks(2))
        let literal: Stride = 42
        #expect(literal.ticks == 42)
    }

    @Test func timesAdvanceMeasureAndCompareByTick() {
        let start = VirtualTime(tick: 10)
        #expect(start.advanced(by: .ticks(5)) == VirtualTime(tick: 15))
        #expect(start.advanced(by: .ticks(-15)) == VirtualTime(tick: -5))
        #expect(start.distance(to: VirtualTime(tick: 4)) == .ticks(-6))
        #expect(VirtualTime(tick: 1) < VirtualTime(tick: 2))
        #expect(VirtualTime(tick: .min) < VirtualTime(tick: .max))
        #expect(VirtualTime(virtualTick: 3).virtualTick == 3)
        #expect(
            Array(stride(from: VirtualTime(tick: 0), to: VirtualTime(tick: 6), by: .ticks(2))).map(\.tick) == [0, 2, 4])
    }

    @Test func timeArithmeticSaturatesInsteadOfOverflowing() {
        #expect(VirtualTime(tick: .max - 1).advanced(by: .ticks(5)) == VirtualTime(tick: .max))
        #expect(VirtualTime(tick: .min + 1).advanced(by: .ticks(-5)) == VirtualTime(tick: .min))
        #expect(VirtualTime(tick: .min).distance(to: VirtualTime(tick: .max)) == Stride(ticks: .max))
        #expect(VirtualTime(tick: .max).distance(to: VirtualTime(tick: .min)) == Stride(ticks: .min))
    }

    @Test func descriptionsNameTicks() {
        #expect(VirtualTime(tick: 5).description == "tick 5")
        #expect(Stride.ticks(5).description == "5 ticks")
        #expect(Stride.ticks(1).description == "1 tick")
        #expect(Stride.ticks(-1).description == "-1 tick")
        #expect(Stride.ticks(0).description == "0 ticks")
    }
}
