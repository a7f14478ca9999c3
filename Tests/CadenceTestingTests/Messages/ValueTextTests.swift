import Foundation
import Testing

@testable import CadenceTesting

private struct User {
    var id: Int
    var name: String
}

private struct Box<Value> {
    var value: Value
}

private struct Empty {}

private enum APIError: Error {
    case offline
    case status(Int)
    case rejected(reason: String, retry: Bool)
}

private struct TimeoutError: Error {
    var seconds: Int
}

/// Describes itself, but has fields: its fields print.
private struct Described: CustomStringConvertible {
    var secret: Int
    var description: String { "a described value" }
}

/// Describes itself and has nothing else to show: its description prints.
private struct OnlyDescribed: CustomStringConvertible {
    var description: String { "only a description" }
}

/// An enum case without a payload whose enum describes itself: Swift hides the case name.
private enum Light: CustomStringConvertible {
    case red, green
    var description: String { self == .red ? "stop" : "go" }
}

/// Describes itself over several lines.
private struct MultilineDescribed: CustomDebugStringConvertible {
    var debugDescription: String { "first\n    second\nthird" }
}

private final class Node {
    var value: Int
    var next: Node?
    init(_ value: Int, next: Node? = nil) {
        self.value = value
        self.next = next
    }
}

private class Animal {
    var name = "Rex"
}

private final class Dog: Animal {
    var barks = true
}

private indirect enum Chain {
    case end
    case link(Int, Chain)
}

@Suite("ValueText")
struct ValueTextTests {
    // MARK: describe — scalars

    @Test func numbersPrintAsLiterals() {
        #expect(ValueText.describe(1) == "1")
        #expect(ValueText.describe(-3) == "-3")
        #expect(ValueText.describe(UInt8(7)) == "7")
        #expect(ValueText.describe(1.5) == "1.5")
        #expect(ValueText.describe(2.0) == "2.0")
        #expect(ValueText.describe(Float(0.25)) == "0.25")
        #expect(ValueText.describe(Double.infinity) == "inf")
    }

    @Test func boolsPrintAsLiterals() {
        #expect(ValueText.describe(true) == "true")
        #expect(ValueText.describe(false) == "false")
    }

    @Test func stringsAndCharactersPrintAsQuotedLiterals() {
        #expect(ValueText.describe("a") == #""a""#)
        #expect(ValueText.describe("") == #""""#)
        #expect(ValueText.describe("say \"hi\"\n\tbye") == #""say \"hi\"\n\tbye""#)
        #expect(ValueText.describe("é🙂") == #""é🙂""#)
        #expect(ValueText.describe(Character("x")) == #""x""#)
        #expect(ValueText.describe("abc".dropFirst()) == #""bc""#)
        #expect(ValueText.describe(Unicode.Scalar("z")) == #""z""#)
        #expect(ValueText.describe("static" as StaticString) == #""static""#)
    }

    @Test func anApostropheIsNotEscapedAsNoSwiftLiteralNeedsIt() {
        #expect(ValueText.describe("You're offline") == #""You're offline""#)
        #expect(ValueText.describe(Character("'")) == #""'""#)
        #expect(ValueText.describe(#"a\'b"#) == #""a\\'b""#)
        #expect(ValueText.describe(["it's": "Sam's"]) == #"["it's": "Sam's"]"#)
        #expect(ValueText.describe("line one\nisn't") == #""line one\nisn't""#)
    }

    @Test func typesPrintAsSelf() {
        #expect(ValueText.describe(Int.self) == "Int.self")
        #expect(ValueText.describe(User.self) == "User.self")
        #expect(ValueText.describe([String].self) == "Array<String>.self")
    }

    @Test func optionalsPrintTheirValueOrNil() {
        #expect(ValueText.describe(Optional(1) as Any) == "1")
        #expect(ValueText.describe(Int?.none as Any) == "nil")
        #expect(ValueText.describe(Optional(Optional(Int?.none)) as Any) == "nil")
        #expect(ValueText.describe(Optional("a") as Any) == #""a""#)
        #expect(ValueText.describe([1, nil, 3] as [Int?]) == "[1, nil, 3]")
    }

    @Test func standardLibraryAndFoundationTypesPrintTheirDescription() {
        #expect(ValueText.describe(Duration.milliseconds(1500)) == "1.5 seconds")
        #expect(ValueText.describe(0..<3) == "0..<3")
        #expect(ValueText.describe(URL(string: "https://example.com/a?b=1")!) == "https://example.com/a?b=1")
        #expect(ValueText.describe(Subscribers.Demand.max(3)) == "max(3)")
    }

    @Test func anyHashablePrintsTheValueItWraps() {
        #expect(ValueText.describe(AnyHashable(1)) == "1")
        #expect(ValueText.describe(AnyHashable("a")) == #""a""#)
    }

    @Test func closuresPrintAsSwiftDoes() {
        let closure: @Sendable () -> Void = {}
        #expect(ValueText.describe(closure) == "(Function)")
    }

    // MARK: describe — collections

    @Test func arraysPrintTheirElements() {
        #expect(ValueText.describe([1, 2]) == "[1, 2]")
        #expect(ValueText.describe([Int]()) == "[]")
        #expect(ValueText.describe([["a"], []]) == #"[["a"], []]"#)
        #expect(ValueText.describe([1, 2, 3][1...]) == "[2, 3]")
        #expect(ValueText.describe(ContiguousArray([4])) == "[4]")
    }

    @Test func dictionariesPrintTheirEntriesSortedByKey() {
        #expect(ValueText.describe(["b": 2, "a": 1, "c": 3]) == #"["a": 1, "b": 2, "c": 3]"#)
        #expect(ValueText.describe([String: Int]()) == "[:]")
        #expect(ValueText.describe([10: "x", 2: "y", -1: "z"]) == #"[-1: "z", 2: "y", 10: "x"]"#)
        #expect(ValueText.describe(["k": [1]]) == #"["k": [1]]"#)
    }

    @Test func dictionaryKeysOfMixedTypesPutNumbersFirst() {
        let mixed: [AnyHashable: Int] = ["a": 1, 2: 2, 1: 3]
        #expect(ValueText.describe(mixed) == #"[1: 3, 2: 2, "a": 1]"#)
    }

    @Test func setsPrintTheirElementsSorted() {
        #expect(ValueText.describe(Set([3, 1, 2, 10])) == "Set([1, 2, 3, 10])")
        #expect(ValueText.describe(Set(["b", "a"])) == #"Set(["a", "b"])"#)
        #expect(ValueText.describe(Set<Int>()) == "Set([])")
    }

    @Test func tuplesPrintTheirElementsWithTheirLabels() {
        #expect(ValueText.describe((1, "a")) == #"(1, "a")"#)
        #expect(ValueText.describe((x: 1, y: 2)) == "(x: 1, y: 2)")
        #expect(ValueText.describe((1, label: true)) == "(1, label: true)")
        #expect(ValueText.describe(()) == "()")
    }

    // MARK: describe — structs and classes

    @Test func structsPrintTheirTypeAndFields() {
        #expect(ValueText.describe(User(id: 1, name: "Blob")) == #"User(id: 1, name: "Blob")"#)
        #expect(ValueText.describe(Empty()) == "Empty()")
    }

    @Test func genericTypesPrintTheirArgumentsWithoutModules() {
        #expect(ValueText.describe(Box(value: 1)) == "Box<Int>(value: 1)")
        #expect(
            ValueText.describe(Box(value: User(id: 2, name: "Blob Jr.")))
                == #"Box<User>(value: User(id: 2, name: "Blob Jr."))"#
        )
        #expect(
            ValueText.describe(Box(value: [Box(value: "a")]))
                == #"Box<Array<Box<String>>>(value: [Box<String>(value: "a")])"#)
    }

    @Test func typesDefinedInAFunctionPrintTheirPlainName() {
        struct Local {
            var flag = true
        }
        #expect(ValueText.describe(Local()) == "Local(flag: true)")
    }

    @Test func ownTypesPrintTheirFieldsEvenWhenTheyDescribeThemselves() {
        #expect(ValueText.describe(Described(secret: 42)) == "Described(secret: 42)")
    }

    @Test func ownTypesWithNothingElseToShowPrintTheirDescription() {
        #expect(ValueText.describe(OnlyDescribed()) == "only a description")
    }

    @Test func descriptionsOverSeveralLinesPrintOnOne() {
        #expect(ValueText.describe(MultilineDescribed()) == "first second third")
    }

    @Test func classesPrintTheirFieldsAfterTheirSuperclasses() {
        #expect(ValueText.describe(Node(1, next: Node(2))) == "Node(value: 1, next: Node(value: 2, next: nil))")
        #expect(ValueText.describe(Dog()) == #"Dog(name: "Rex", barks: true)"#)
    }

    @Test func aReferenceCyclePrintsAsABackReference() {
        let node = Node(1)
        node.next = node
        #expect(ValueText.describe(node) == "Node(value: 1, next: Node(↺))")
        let first = Node(1)
        let second = Node(2, next: first)
        first.next = second
        #expect(ValueText.describe(first) == "Node(value: 1, next: Node(value: 2, next: Node(↺)))")
        first.next = nil
    }

    @Test func theSameObjectTwiceIsNotACycle() {
        let shared = Node(7)
        #expect(ValueText.describe([shared, shared]) == "[Node(value: 7, next: nil), Node(value: 7, next: nil)]")
    }

    // MARK: describe — enums

    @Test func enumCasesPrintQualifiedOnTheirOwn() {
        #expect(ValueText.describe(APIError.offline) == "APIError.offline")
        #expect(ValueText.describe(APIError.status(404)) == "APIError.status(404)")
        #expect(
            ValueText.describe(APIError.rejected(reason: "quota", retry: false))
                == #"APIError.rejected(reason: "quota", retry: false)"#
        )
    }

    @Test func enumCasesPrintUnqualifiedInsideAnotherValue() {
        #expect(ValueText.describe([APIError.offline, .status(500)]) == "[.offline, .status(500)]")
        #expect(ValueText.describe(Box(value: APIError.offline)) == "Box<APIError>(value: .offline)")
        #expect(ValueText.describe(Chain.link(1, .link(2, .end))) == "Chain.link(1, .link(2, .end))")
    }

    @Test func genericEnumsAreQualifiedWithoutTheirArguments() {
        let success: Result<Int, APIError> = .success(1)
        let failure: Result<Int, APIError> = .failure(.offline)
        #expect(ValueText.describe(success) == "Result.success(1)")
        #expect(ValueText.describe(failure) == "Result.failure(.offline)")
        #expect(
            ValueText.describe(Subscribers.Completion<APIError>.failure(.status(1)))
                == "Subscribers.Completion.failure(.status(1))"
        )
        #expect(ValueText.describe(Subscribers.Completion<Never>.finished) == "Subscribers.Completion.finished")
    }

    @Test func anEnumThatDescribesItselfPrintsItsDescriptionForCasesWithoutPayload() {
        #expect(ValueText.describe(Light.red) == "stop")
        #expect(ValueText.describe([Light.green]) == "[go]")
    }

    // MARK: describe — errors

    @Test func errorsPrintLikeOtherValues() {
        #expect(ValueText.describe(APIError.offline as any Error) == "APIError.offline")
        #expect(ValueText.describe(TimeoutError(seconds: 3)) == "TimeoutError(seconds: 3)")
        #expect(ValueText.describe(CancellationError()) == "CancellationError()")
    }

    @Test func nsErrorsPrintTheirDomainAndCode() {
        let error = NSError(domain: "NSURLErrorDomain", code: -1009, userInfo: ["key": "ignored"])
        #expect(ValueText.describe(error) == #"NSError(domain: "NSURLErrorDomain", code: -1009)"#)
        #expect(ValueText.describe(error as any Error) == #"NSError(domain: "NSURLErrorDomain", code: -1009)"#)
    }

    /// Foundation prints a `URLError` as `Error Domain=NSURLErrorDomain Code=-1000 "(null)"`; a message names its code.
    @Test func urlErrorsPrintTheirCodeByName() {
        #expect(ValueText.describe(URLError(.badURL)) == "URLError(.badURL)")
        #expect(ValueText.describe(URLError(.notConnectedToInternet)) == "URLError(.notConnectedToInternet)")
        // A code Cadence has no name for prints its number.
        #expect(ValueText.describe(URLError(.internationalRoamingOff)) == "URLError(code: -1018)")
        #expect(
            ValueText.describe(Result<Int, URLError>.failure(URLError(.timedOut)))
                == "Result.failure(URLError(.timedOut))")
        #expect(ValueText.describe(URLError(.timedOut) as any Error) == "URLError(.timedOut)")
    }

    /// A `DispatchTime`'s raw value is in mach ticks on Apple silicon; the message shows nanoseconds everywhere.
    @Test func dispatchTimesPrintTheirUptimeInNanoseconds() {
        let time = DispatchTime(uptimeNanoseconds: 2_000_000_000)
        #expect(ValueText.describe(time) == "DispatchTime(uptimeNanoseconds: 2000000000)")
        #expect(
            ValueText.describe(DispatchQueue.SchedulerTimeType(time))
                == "DispatchQueue.SchedulerTimeType(dispatchTime: DispatchTime(uptimeNanoseconds: 2000000000))"
        )
        #expect(ValueText.describe([time]) == "[DispatchTime(uptimeNanoseconds: 2000000000)]")
    }

    // MARK: describe — limits

    @Test func deeplyNestedValuesAreCutAfterTwelveLevels() {
        var chain = Chain.end
        for value in (1...14).reversed() { chain = .link(value, chain) }
        let expected =
            "Chain.link(1, " + (2...12).map { ".link(\($0), " }.joined() + ".link(…)"
            + String(repeating: ")", count: 12)
        #expect(ValueText.describe(chain) == expected)
        var nested: Any = 0
        for _ in 1...14 { nested = [nested] }
        #expect(
            ValueText.describe(nested) == String(repeating: "[", count: 12) + "[…]" + String(repeating: "]", count: 12))
    }

    @Test func longCollectionsPrintTheirEndsAndCountTheRest() {
        #expect(
            ValueText.describe(Array(1...20_000))
                == "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (19,987 more), 19998, 19999, 20000]")
        #expect(ValueText.describe(Array(1...20)) == "[" + (1...20).map(String.init).joined(separator: ", ") + "]")
        #expect(ValueText.describe(Array(1...21)) == "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (8 more), 19, 20, 21]")
        #expect(ValueText.describe(Set(1...30)) == "Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (17 more), 28, 29, 30])")
        #expect(
            ValueText.describe(Dictionary(uniqueKeysWithValues: (1...25).map { ($0, $0 * 2) }))
                == "[1: 2, 2: 4, 3: 6, 4: 8, 5: 10, 6: 12, 7: 14, 8: 16, 9: 18, 10: 20, … (12 more), 23: 46, 24: 48, 25: 50]"
        )
    }

    @Test func hugeValuesAreCutAfterTenThousandParts() {
        // Twenty lists of twenty lists of twenty lists of twenty: no collection is shortened, 168,421 parts.
        let nested = Array(
            repeating: Array(repeating: Array(repeating: Array(0..<20), count: 20), count: 20), count: 20)
        let text = ValueText.describe(nested)
        let isCut = text.hasPrefix("[[[[0, 1, 2, ") && text.count < 60_000
        #expect(isCut)
        #expect(text.hasSuffix(", 16, 17, …], …], …], …]"))
    }

    // MARK: difference — when there is one

    @Test func equalValuesHaveNoDifference() {
        #expect(ValueText.difference(expected: User(id: 1, name: "a"), received: User(id: 1, name: "a")) == nil)
        #expect(ValueText.difference(expected: [1, 2], received: [1, 2]) == nil)
        #expect(ValueText.difference(expected: 1, received: 1) == nil)
    }

    @Test func shortValuesThatDifferWholeHaveNoDifference() {
        #expect(ValueText.difference(expected: [1], received: [Int]?.none as Any) == nil)
        #expect(ValueText.difference(expected: User(id: 1, name: "a"), received: Box(value: 1)) == nil)
        #expect(ValueText.difference(expected: (1, 2), received: (x: 1, y: 2)) == nil)
    }

    @Test func longValuesThatDifferWholeHaveADifference() {
        #expect(
            ValueText.difference(
                expected: User(id: 1, name: "Blob"), received: APIError.rejected(reason: "quota", retry: true)) == """
                    Difference (- expected, + received):
                    - User(id: 1, name: "Blob")
                    + APIError.rejected(reason: "quota", retry: true)
                    """)
    }

    @Test func shortScalarsHaveNoDifference() {
        #expect(ValueText.difference(expected: 2, received: 5) == nil)
        #expect(ValueText.difference(expected: "a", received: "b") == nil)
        #expect(ValueText.difference(expected: APIError.offline, received: APIError.status(1)) == nil)
        #expect(ValueText.difference(expected: Int?.none as Any, received: 1) == nil)
    }

    @Test func valuesThatPrintAlikeHaveNoDifference() {
        #expect(ValueText.difference(expected: Double.nan, received: Double.nan) == nil)
    }

    @Test func longScalarsHaveADifference() {
        let expected = "The quick brown fox jumps over the lazy dog"
        let received = "The quick brown fox jumped over the lazy dog"
        #expect(
            ValueText.difference(expected: expected, received: received) == """
                Difference (- expected, + received):
                - "The quick brown fox jumps over the lazy dog"
                + "The quick brown fox jumped over the lazy dog"
                """)
    }

    @Test func aScalarOfExactlyFortyCharactersHasNone() {
        let forty = String(repeating: "x", count: 38)
        #expect(ValueText.difference(expected: forty, received: "y") == nil)
        #expect(ValueText.difference(expected: forty + "x", received: "y") != nil)
    }

    @Test func valuesThatDifferInsideHaveADifference() {
        #expect(
            ValueText.difference(expected: User(id: 1, name: "Blob"), received: User(id: 1, name: "Blob Jr.")) == """
                Difference (- expected, + received):
                  User(
                    id: 1
                -   name: "Blob"
                +   name: "Blob Jr."
                  )
                """)
        #expect(
            ValueText.difference(expected: [1, 2], received: [1, 3]) == """
                Difference (- expected, + received):
                  [
                    1
                -   2
                +   3
                  ]
                """)
    }

    @Test func stringsOfSeveralLinesHaveADifferenceLineByLine() {
        #expect(
            ValueText.difference(expected: "a\nb", received: "a\nc") == #"""
                Difference (- expected, + received):
                  """
                  a
                - b
                + c
                  """
                """#)
        #expect(ValueText.describe("a\nb") == #""a\nb""#)
        #expect(ValueText.difference(expected: "a\nb", received: "ab") == nil)
    }

    @Test func enumPayloadsHaveADifference() {
        #expect(
            ValueText.difference(expected: APIError.status(404), received: APIError.status(500)) == """
                Difference (- expected, + received):
                  APIError.status(
                -   404
                +   500
                  )
                """)
    }
}
