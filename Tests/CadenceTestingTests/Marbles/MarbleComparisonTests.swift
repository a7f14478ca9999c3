import Testing

@testable import CadenceTesting

@Suite("MarbleComparison")
struct MarbleComparisonTests {
    func comparison(
        _ expected: String,
        _ received: [Int: [Character]],
        through: Int,
        divergence: Int,
        origin: Int64 = 0,
        legend: [(symbol: Character, value: String)] = []
    ) throws -> String {
        MarbleComparison(
            expected: try MarbleDiagram(parsing: expected), received: received, receivedThrough: through,
            divergence: divergence, origin: origin, legend: legend
        ).text
    }

    @Test("The received diagram under the expected one, with a caret under the first difference")
    func late() throws {
        #expect(
            try comparison("-a-b-(c|)", [1: ["a"], 4: ["b"]], through: 4, divergence: 3) == """
                    expected  -a-b-(c|)
                    received  -a--b
                                 ^ tick 3
                """)
    }

    @Test("A group wider than the other diagram's tick pads that tick with spaces, so later ticks line up")
    func groupsLineUp() throws {
        #expect(
            try comparison("(ab)-c", [0: ["a"], 1: ["b"], 2: ["c"]], through: 2, divergence: 0) == """
                    expected  (ab)-c
                    received  a   bc
                              ^ tick 0
                """)
        #expect(
            try comparison("a-b", [0: ["a"], 2: ["b", "|"]], through: 2, divergence: 2) == """
                    expected  a-b
                    received  a-(b|)
                                ^ tick 2
                """)
    }

    @Test("Ticks nothing arrived on are dashes, through the last tick watched")
    func quietTicks() throws {
        #expect(
            try comparison("-a-b", [1: ["a"]], through: 6, divergence: 3) == """
                    expected  -a-b
                    received  -a-----
                                 ^ tick 3
                """)
    }

    @Test("The received diagram ends at its completion")
    func endsAtCompletion() throws {
        #expect(
            try comparison("-a--b", [1: ["a", "|"]], through: 4, divergence: 1) == """
                    expected  -a   --b
                    received  -(a|)
                               ^ tick 1
                """)
    }

    @Test("Events before the step started get columns before the diagram's first tick")
    func beforeTheStep() throws {
        #expect(
            try comparison("a", [-3: ["a"]], through: 0, divergence: -3, origin: 5) == """
                    expected     a
                    received  a---
                              ^ tick 2 (the first column is tick 2)
                """)
    }

    @Test("A step that starts later says which tick the first column is")
    func laterOrigin() throws {
        #expect(
            try comparison("-a", [1: ["b"]], through: 1, divergence: 1, origin: 10) == """
                    expected  -a
                    received  -b
                               ^ tick 11 (the first column is tick 10)
                """)
    }

    @Test("Diagrams that would run over 120 ticks or more are not drawn side by side")
    func tooWide() throws {
        #expect(
            try comparison("-a", [-500: ["a"]], through: 1, divergence: -500, origin: 1_000) == """
                    expected  -a
                    received  (not drawn: the two would run over 502 ticks; the timeline above lists every event)
                """)
        #expect(try comparison("-a", [-118: ["a"]], through: 1, divergence: -118).contains("^ tick -118"))
        #expect(try comparison("-a", [-119: ["a"]], through: 1, divergence: -119).contains("not drawn"))
        #expect(
            try comparison("-a", [Int.min: ["a"]], through: Int.max, divergence: Int.min) == """
                    expected  -a
                    received  (not drawn: the two would run over more than \(Int.max) ticks; the timeline above lists \
                every event)
                """)
    }

    @Test("Values without a key are listed under the diagrams")
    func legend() throws {
        #expect(
            try comparison("-a", [1: ["A"]], through: 1, divergence: 1, legend: [("A", "42")]) == """
                    expected  -a
                    received  -A
                               ^ tick 1
                    where     A = 42
                """)
    }
}
