import Testing

@testable import CadenceTesting

private struct Pair {
    var first: Int
    var second: String
}

private enum Shape {
    case point
    case circle(radius: Int)
}

private final class Counter: @unchecked Sendable {
    // Never mutated after init; shared across tasks only to read.
    let count: Int
    let parent: Counter?
    init(_ count: Int, parent: Counter? = nil) {
        self.count = count
        self.parent = parent
    }
}

@Suite("ValueNodeBuilder")
struct ValueNodeBuilderTests {
    @Test func recordsKeepTheirTypeAndLabelledFields() {
        let node = ValueNodeBuilder.node(Pair(first: 1, second: "a"))
        guard case let .record(type, fields) = node.shape else {
            Issue.record("not a record: \(node.shape)")
            return
        }
        #expect(type == "Pair")
        #expect(fields.map(\.label) == ["first", "second"])
        #expect(fields.map(\.value.text) == ["1", #""a""#])
    }

    @Test func enumCasesKeepTheirUnqualifiedTypeAndPayload() {
        let node = ValueNodeBuilder.node(Shape.circle(radius: 2))
        guard case let .enumCase(type, name, payload?) = node.shape else {
            Issue.record("not a case with a payload: \(node.shape)")
            return
        }
        #expect(type == "Shape")
        #expect(name == "circle")
        #expect(payload.map(\.label) == ["radius"])
        guard case .enumCase(_, "point", nil) = ValueNodeBuilder.node(Shape.point).shape else {
            Issue.record("a case without a payload has one")
            return
        }
    }

    @Test func scalarsAreWhole() {
        guard case .scalar = ValueNodeBuilder.node(3).shape else {
            Issue.record("3 is not a scalar")
            return
        }
        #expect(ValueNodeBuilder.node(3).text == "3")
    }

    @Test func theLimitsAreTwelveLevelsAndTenThousandParts() {
        #expect(ValueNodeBuilder.maxDepth == 12)
        #expect(ValueNodeBuilder.maxNodes == 10_000)
    }

    @Test func hugeDictionariesAndArraysOfRecordsPrintTheirEnds() {
        let dictionary = Dictionary(uniqueKeysWithValues: (0..<6_000).map { ($0, $0) })
        #expect(
            ValueText.describe(dictionary)
                == "[0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, … (5,987 more), 5997: 5997, 5998: 5998, 5999: 5999]"
        )
        let tuples = ValueText.describe(Array(repeating: (1, 2, 3), count: 5_000))
        #expect(
            tuples == "[" + Array(repeating: "(1, 2, 3)", count: 10).joined(separator: ", ") + ", … (4,987 more), "
                + Array(repeating: "(1, 2, 3)", count: 3).joined(separator: ", ") + "]")
    }

    @Test func aComparedValueKeepsEveryElementUpToAMillionParts() {
        #expect(ValueNodeBuilder.maxComparedNodes == 1_000_000)
        let node = ValueNodeBuilder.comparisonNode(Array(0..<20_000))
        guard case let .list(elements) = node.shape else {
            Issue.record("an array is not a list: \(node.shape)")
            return
        }
        #expect(elements.count == 20_000)
        #expect(elements.last?.text == "19999")
        let cut = ValueNodeBuilder.comparisonNode(Array(0..<1_000_001))
        #expect(cut.text.hasSuffix(", 999998, …]"))
    }

    @Test func numbersSortByValueBeforeText() {
        #expect(ValueNodeBuilder.precedes("2", "10"))
        #expect(!ValueNodeBuilder.precedes("10", "2"))
        #expect(ValueNodeBuilder.precedes("-1.5", "0"))
        #expect(ValueNodeBuilder.precedes("10", #""a""#))
        #expect(!ValueNodeBuilder.precedes(#""a""#, "10"))
        #expect(ValueNodeBuilder.precedes(#""a""#, #""b""#))
        #expect(!ValueNodeBuilder.precedes("1", "1"))
        #expect(ValueNodeBuilder.precedes("1", "1.0"))
    }

    @Test func textsOverSeveralLinesAreJoined() {
        #expect(ValueNodeBuilder.oneLine("a\n  b\r\nc") == "a b c")
        #expect(ValueNodeBuilder.oneLine("plain") == "plain")
    }

    @Test func describingFromManyTasksAtOnceIsSafe() async {
        let shared = Counter(1, parent: Counter(0))
        let texts = await withTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var last = ""
                    for _ in 0..<50 { last = ValueText.describe([shared, shared]) }
                    return last
                }
            }
            return await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(
            texts == [
                "[Counter(count: 1, parent: Counter(count: 0, parent: nil)), Counter(count: 1, parent: Counter(count: 0, parent: nil))]"
            ])
    }
}
