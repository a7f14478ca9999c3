import Testing

@testable import CadenceTesting

/// `EventTime` is declared in Recording/TimedEvent.swift; these pin how failure messages print it.
@Suite("EventTime text")
struct EventTimeTests {
    @Test func millisecondsHaveAtMostOneDecimal() {
        #expect(EventTime.milliseconds(.zero) == "0")
        #expect(EventTime.milliseconds(.milliseconds(12.5)) == "12.5")
        #expect(EventTime.milliseconds(.milliseconds(3)) == "3")
        #expect(EventTime.milliseconds(.milliseconds(1_200)) == "1200")
        #expect(EventTime.milliseconds(.microseconds(12_560)) == "12.5")
        #expect(EventTime.milliseconds(.microseconds(99)) == "0")
        #expect(EventTime.milliseconds(.seconds(3_600)) == "3600000")
    }

    @Test func negativeDurationsKeepTheirSign() {
        #expect(EventTime.milliseconds(.milliseconds(-1.5)) == "-1.5")
        #expect(EventTime.milliseconds(.milliseconds(-2)) == "-2")
        #expect(EventTime.milliseconds(.milliseconds(-0.5)) == "-0.5")
    }

    @Test func descriptionsNameTheTickOrTheElapsedTime() {
        #expect(EventTime.tick(5).description == "tick 5")
        #expect(EventTime.tick(0).description == "tick 0")
        #expect(EventTime.elapsed(.milliseconds(12.5)).description == "+12.5 ms")
        #expect(EventTime.elapsed(.zero).description == "+0 ms")
    }
}
