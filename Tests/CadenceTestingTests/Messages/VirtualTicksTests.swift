import Testing

@testable import CadenceTesting

@Suite("VirtualTicks")
struct VirtualTicksTests {
    @Test func ticksAreWholeMillisecondsRoundedUp() {
        #expect(VirtualTicks.count(in: .zero) == 0)
        #expect(VirtualTicks.count(in: .milliseconds(5)) == 5)
        #expect(VirtualTicks.count(in: .microseconds(1_500)) == 2)
        #expect(VirtualTicks.count(in: .nanoseconds(1)) == 1)
        #expect(VirtualTicks.count(in: .seconds(2)) == 2_000)
    }

    @Test func countsReadAsPhrases() {
        #expect(VirtualTicks.describe(.milliseconds(1)) == "1 tick")
        #expect(VirtualTicks.describe(.zero) == "0 ticks")
        #expect(VirtualTicks.describe(.ticks(5)) == "5 ticks")
        #expect(VirtualTicks.describe(.microseconds(1_500)) == "2 ticks")
    }

    @Test func budgetsPrintAsTheirLiteral() {
        #expect(VirtualTicks.literal(.seconds(2)) == ".seconds(2)")
        #expect(VirtualTicks.literal(.ticks(5)) == ".ticks(5)")
        #expect(VirtualTicks.literal(.milliseconds(1_500)) == ".ticks(1500)")
        #expect(VirtualTicks.literal(.zero) == ".ticks(0)")
        #expect(VirtualTicks.literal(.microseconds(2_500)) == ".ticks(3)")
    }

    @Test func aNegativeDurationNeverReadsAsZeroTicks() {
        let oneAttosecondLess = Duration.zero - Duration(secondsComponent: 0, attosecondsComponent: 1)
        #expect(VirtualTicks.describe(oneAttosecondLess) == "-1 tick")
        #expect(VirtualTicks.literal(oneAttosecondLess) == ".ticks(-1)")
        #expect(VirtualTicks.describe(.zero - .microseconds(1_500)) == "-2 ticks")
        #expect(VirtualTicks.literal(.zero - .microseconds(1_500)) == ".ticks(-2)")
        #expect(VirtualTicks.literal(.seconds(-2)) == ".seconds(-2)")
    }
}
