import Foundation
import Testing

@testable import CadenceTesting

private struct Address {
    var street: String
    var city: String
}

private struct Person {
    var id: Int
    var name: String
    var address: Address
    var tags: [String]
}

private struct Wide {
    var a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8
}

private enum Event {
    case idle
    case moved(x: Int, y: Int)
    case loaded(Person)
}

private final class Node {
    var value: Int
    var next: Node?
    init(_ value: Int, next: Node? = nil) {
        self.value = value
        self.next = next
    }
}

private struct Mail {
    var subject: String
    var body: String
}

private struct Other {
    var id: Int
    var name: String
}

/// The lines of the difference, as `ValueText.difference` prints them under its header.
private func difference(_ expected: Any, _ received: Any) -> String {
    ValueDifference.lines(
        expected: ValueNodeBuilder.comparisonNode(expected), received: ValueNodeBuilder.comparisonNode(received)
    )
    .map(\.rendered).joined(separator: "\n")
}

private let blob = Person(
    id: 1, name: "Blob", address: Address(street: "1 Main St", city: "Springfield"), tags: ["a", "b"]
)

@Suite("ValueDifference")
struct ValueDifferenceTests {
    @Test func theHeaderNamesTheMarks() {
        let text = ValueText.difference(expected: [1], received: [2])
        #expect(text?.split(separator: "\n").first == "Difference (- expected, + received):")
    }

    @Test func equalValuesAreOneUnchangedLine() {
        #expect(
            difference(Address(street: "a", city: "b"), Address(street: "a", city: "b"))
                == #"  Address(street: "a", city: "b")"#)
    }

    // MARK: Records

    @Test func aChangedFieldShowsItsOtherFieldsAsContext() {
        var received = blob
        received.name = "Blob Jr."
        #expect(
            difference(blob, received) == """
                  Person(
                    id: 1
                -   name: "Blob"
                +   name: "Blob Jr."
                    address: Address(street: "1 Main St", city: "Springfield")
                    tags: ["a", "b"]
                  )
                """)
    }

    @Test func nestedRecordsOpenUpToTheChangedField() {
        var received = blob
        received.address.city = "Shelbyville"
        #expect(
            difference(blob, received) == """
                  Person(
                    id: 1
                    name: "Blob"
                    address: Address(
                      street: "1 Main St"
                -     city: "Springfield"
                +     city: "Shelbyville"
                    )
                    tags: ["a", "b"]
                  )
                """)
    }

    @Test func recordsOfDifferentTypesDifferWhole() {
        #expect(
            difference(Other(id: 1, name: "a"), Address(street: "a", city: "b")) == """
                - Other(id: 1, name: "a")
                + Address(street: "a", city: "b")
                """)
    }

    @Test func longRunsOfUnchangedFieldsCollapse() {
        var received = Wide()
        received.e = 50
        #expect(
            difference(Wide(), received) == """
                  Wide(
                    … (4 unchanged)
                -   e: 5
                +   e: 50
                    f: 6
                    g: 7
                    h: 8
                  )
                """)
    }

    @Test func runsOfThreeUnchangedFieldsStay() {
        var received = Wide()
        received.d = 40
        received.h = 80
        #expect(
            difference(Wide(), received) == """
                  Wide(
                    a: 1
                    b: 2
                    c: 3
                -   d: 4
                +   d: 40
                    e: 5
                    f: 6
                    g: 7
                -   h: 8
                +   h: 80
                  )
                """)
    }

    @Test func classesCompareTheirFields() {
        #expect(
            difference(Node(1, next: Node(2)), Node(1, next: Node(3))) == """
                  Node(
                    value: 1
                    next: Node(
                -     value: 2
                +     value: 3
                      next: nil
                    )
                  )
                """)
    }

    @Test func cyclicClassesCompareWithoutLooping() {
        let expected = Node(1)
        let received = Node(1)
        expected.next = expected
        received.next = Node(2)
        #expect(
            difference(expected, received) == """
                  Node(
                    value: 1
                -   next: Node(↺)
                +   next: Node(value: 2, next: nil)
                  )
                """)
        expected.next = nil
    }

    // MARK: Enums

    @Test func theSameCaseComparesItsPayload() {
        #expect(
            difference(Event.moved(x: 1, y: 2), Event.moved(x: 1, y: 3)) == """
                  Event.moved(
                    x: 1
                -   y: 2
                +   y: 3
                  )
                """)
    }

    @Test func aNestedPayloadOpensUp() {
        var received = blob
        received.id = 2
        #expect(
            difference(Event.loaded(blob), Event.loaded(received)) == """
                  Event.loaded(
                    Person(
                -     id: 1
                +     id: 2
                      name: "Blob"
                      address: Address(street: "1 Main St", city: "Springfield")
                      tags: ["a", "b"]
                    )
                  )
                """)
    }

    @Test func differentCasesDifferWhole() {
        #expect(
            difference(Event.moved(x: 1, y: 2), Event.idle) == """
                - Event.moved(x: 1, y: 2)
                + Event.idle
                """)
    }

    @Test func enumsInsideAValueAreUnqualified() {
        #expect(
            difference([Event.idle, .moved(x: 0, y: 0)], [Event.idle, .moved(x: 0, y: 1)]) == """
                  [
                    .idle
                    .moved(
                      x: 0
                -     y: 0
                +     y: 1
                    )
                  ]
                """)
    }

    // MARK: Optionals and tuples

    @Test func anOptionalComparesItsValue() {
        #expect(
            difference(Optional(Address(street: "a", city: "b")) as Any, Address?.none as Any) == """
                - Address(street: "a", city: "b")
                + nil
                """)
        #expect(
            difference(Optional([1]) as Any, Optional([2]) as Any) == """
                  [
                -   1
                +   2
                  ]
                """)
    }

    @Test func tuplesCompareTheirElements() {
        #expect(
            difference((1, name: "a"), (1, name: "b")) == """
                  (
                    1
                -   name: "a"
                +   name: "b"
                  )
                """)
        #expect(
            difference((1, 2), (x: 1, y: 2)) == """
                - (1, 2)
                + (x: 1, y: 2)
                """)
    }

    // MARK: Arrays

    @Test func anInsertedElementIsOneLine() {
        #expect(
            difference([1, 2, 3], [1, 9, 2, 3]) == """
                  [
                    1
                +   9
                    2
                    3
                  ]
                """)
    }

    @Test func aRemovedElementIsOneLine() {
        #expect(
            difference([1, 2, 3], [1, 3]) == """
                  [
                    1
                -   2
                    3
                  ]
                """)
    }

    @Test func emptyArraysShowEveryElement() {
        #expect(
            difference([Int](), [1, 2]) == """
                  [
                +   1
                +   2
                  ]
                """)
        #expect(
            difference(["a"], [String]()) == """
                  [
                -   "a"
                  ]
                """)
    }

    @Test func aReplacedElementOfTheSameShapeOpensUp() {
        var received = blob
        received.tags = ["a", "c"]
        #expect(
            difference([blob], [received]) == """
                  [
                    Person(
                      id: 1
                      name: "Blob"
                      address: Address(street: "1 Main St", city: "Springfield")
                      tags: [
                        "a"
                -       "b"
                +       "c"
                      ]
                    )
                  ]
                """)
    }

    @Test func replacedRunsPairUpThenShowTheRest() {
        #expect(
            difference([0, 1, 2, 9], [0, 5, 6, 7, 9]) == """
                  [
                    0
                -   1
                +   5
                -   2
                +   6
                +   7
                    9
                  ]
                """)
    }

    @Test func longUnchangedRunsInArraysCollapse() {
        let expected = Array(1...20)
        var received = expected
        received[9] = 100
        #expect(
            difference(expected, received) == """
                  [
                    … (9 unchanged)
                -   10
                +   100
                    … (10 unchanged)
                  ]
                """)
    }

    @Test func veryLongArraysStillCompare() {
        let expected = Array(0..<2_000)
        let received = expected.map { $0 == 1_000 ? -1 : $0 == 1_001 ? -2 : $0 }
        #expect(
            difference(expected, received) == """
                  [
                    … (1000 unchanged)
                -   1000
                +   -1
                -   1001
                +   -2
                    … (998 unchanged)
                  ]
                """)
    }

    /// Two arrays longer than a printed value's parts that differ only at their end (issue 20 item 7): they print
    /// alike on one line, and the difference shows where they differ.
    @Test func arraysOfTwentyThousandThatDifferAtTheEndShowWhere() {
        let expected = Array(0..<20_000)
        var received = expected
        received[19_999] = -1
        #expect(
            ValueText.difference(expected: expected, received: received) == """
                Difference (- expected, + received):
                  [
                    … (19999 unchanged)
                -   19999
                +   -1
                  ]
                """)
        #expect(
            ValueText.describe(expected) == ValueText.describe(received).replacingOccurrences(of: "-1]", with: "19999]")
        )
    }

    @Test func aLongDifferenceShowsItsFirstThirtyAndLastFiveLines() {
        let expected = Array(0..<1_000)
        let received = expected.map { -$0 - 1 }
        let text = ValueText.difference(expected: expected, received: received) ?? ""
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 37)
        #expect(Array(lines.prefix(4)) == ["Difference (- expected, + received):", "  [", "-   0", "+   -1"])
        #expect(lines[31] == "  … (1,967 lines left out)")
        #expect(Array(lines.suffix(5)) == ["+   -998", "-   998", "+   -999", "-   999", "+   -1000", "  ]"].suffix(5))
    }

    @Test func alignmentFollowsALongestCommonSubsequence() {
        let steps = ValueDifference.align(["a", "b", "c", "d"], ["b", "x", "d", "e"])
        #expect(steps == [.removed(0), .same(1), .removed(2), .inserted(1), .same(3), .inserted(3)])
        #expect(ValueDifference.align([], []) == [])
        #expect(ValueDifference.align(["a"], ["a"]) == [.same(0)])
    }

    @Test func alignmentOfHugeDifferingMiddlesRemovesThenInserts() {
        let expected = (0..<600).map { "e\($0)" }
        let received = (0..<600).map { "r\($0)" }
        let steps = ValueDifference.align(["s"] + expected + ["t"], ["s"] + received + ["t"])
        #expect(steps.count == 1_202)
        #expect(steps.first == .same(0))
        #expect(steps[1] == .removed(1))
        #expect(steps[601] == .inserted(1))
        #expect(steps.last == .same(601))
    }

    // MARK: Sets and dictionaries

    @Test func setsShowMembersOnlyOneSideHas() {
        #expect(
            difference(Set([1, 2, 3]), Set([2, 3, 4])) == """
                  Set([
                -   1
                    2
                    3
                +   4
                  ])
                """)
    }

    @Test func dictionariesCompareEntriesByKey() {
        #expect(
            difference(["a": 1, "b": 2, "c": 3], ["b": 20, "c": 3, "d": 4]) == """
                  [
                -   "a": 1
                -   "b": 2
                +   "b": 20
                    "c": 3
                +   "d": 4
                  ]
                """)
    }

    @Test func dictionaryValuesOpenUp() {
        #expect(
            difference(["k": Address(street: "a", city: "b")], ["k": Address(street: "a", city: "c")]) == """
                  [
                    "k": Address(
                      street: "a"
                -     city: "b"
                +     city: "c"
                    )
                  ]
                """)
    }

    // MARK: Texts

    @Test func stringsOfSeveralLinesCompareLineByLine() {
        #expect(
            difference("first\nsecond\nthird", "first\nsecond!\nthird") == #"""
                  """
                  first
                - second
                + second!
                  third
                  """
                """#)
    }

    @Test func aTextInsideAValueStandsAtTheIndentationOfItsQuotes() {
        let expected = Mail(subject: "Hi", body: "Dear Blob,\nsee you.\n")
        let received = Mail(subject: "Hi", body: "Dear Blob,\nsee you soon.\n")
        #expect(
            difference(expected, received) == #"""
                  Mail(
                    subject: "Hi"
                    body: """
                    Dear Blob,
                -   see you.
                +   see you soon.

                    """
                  )
                """#)
    }

    @Test func removedEmptyLinesShowTheirMarkAlone() {
        #expect(
            difference("a\n\nb", "a\nb") == #"""
                  """
                  a
                -
                  b
                  """
                """#)
    }

    @Test func longTextsCollapseUnchangedLines() {
        let expected = (1...10).map { "line \($0)" }.joined(separator: "\n")
        let received = expected.replacingOccurrences(of: "line 9", with: "line nine")
        #expect(
            difference(expected, received) == #"""
                  """
                  … (8 unchanged)
                - line 9
                + line nine
                  line 10
                  """
                """#)
    }

    @Test func aTextAndAOneLineStringDifferWhole() {
        #expect(
            difference("a\nb", "a b") == #"""
                - "a\nb"
                + "a b"
                """#)
    }

    // MARK: Lines

    @Test func linesRenderTheirMarkThenTwoSpacesALevel() {
        #expect(ValueDifference.Line(mark: "-", depth: 2, text: "x: 1").rendered == "-     x: 1")
        #expect(ValueDifference.Line(mark: " ", depth: 0, text: "[").rendered == "  [")
    }
}
