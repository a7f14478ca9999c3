@testable import CadenceTesting
import Testing

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

    @Test func hugeDictionariesAndRecordsStopAtTheLimit() {
        // (Checked as Booleans: a failure would otherwise print the whole text.)
        let dictionary = Dictionary(uniqueKeysWithValues: (0 ..< 6_000).map { ($0, $0) })
        let text = ValueText.describe(dictionary)
        let dictionaryIsCut = text.hasSuffix(", …: …]") && text.count < 80_000
        #expect(dictionaryIsCut)
        let tuples = ValueText.describe(Array(repeating: (1, 2, 3), count: 5_000))
        let tuplesAreCut = tuples.hasSuffix("(1, 2, 3), (1, 2, …), …]")
        #expect(tuplesAreCut)
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
            for _ in 0 ..< 8 {
                group.addTask {
                    var last = ""
                    for _ in 0 ..< 50 { last = ValueText.describe([shared, shared]) }
                    return last
                }
            }
            return await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(texts == ["[Counter(count: 1, parent: Counter(count: 0, parent: nil)), Counter(count: 1, parent: Counter(count: 0, parent: nil))]"])
    }
}
