import Cadence
import Foundation
import Testing

// Combine's types are Sendable exactly where Apple's Combine declares them so: `Subscribers.Demand` and
// `Subscribers.Completion`, and nothing else (Combine's interface, iOS 16.2 to 18 SDKs:
// `extension Combine.Subscribers.Completion : Swift.Sendable {}` and `extension Combine.Subscribers.Demand :
// Swift.Sendable {}`). A Sendable-ness that Linux has and Apple lacks lets code compile on Linux in Swift 6 mode that
// then fails in Xcode; one that Apple has and Linux lacks does the reverse.
//
// Before this was pinned, CadenceCombine declared `CombineIdentifier`, `ImmediateScheduler` with its
// `SchedulerTimeType` and `Stride`, and the scheduler time types, strides and options of `DispatchQueue`, `RunLoop`
// and `OperationQueue` Sendable, and `sendableConformanceIsChosenWhereDeclared` failed on each of them.

/// `false`: the overload for a type that is not known to be Sendable.
private func isSendable<T>(_: T.Type) -> Bool { false }
/// `true`: the overload Swift picks for a type that is Sendable.
private func isSendable<T: Sendable>(_: T.Type) -> Bool { true }

@Suite("Sendable as in Apple's Combine")
struct SendableAsInCombineTests {
    @Test func demandAndCompletionAreSendable() {
        #expect(isSendable(Subscribers.Demand.self))
        #expect(isSendable(Subscribers.Completion<Never>.self))
        #expect(isSendable(Subscribers.Completion<any Error>.self))
        let sendables: [any Sendable] = [Subscribers.Demand.max(1), Subscribers.Completion<URLError>.finished]
        #expect(sendables.count == 2)
    }

    @Test func combinesOtherTypesAreNotSendable() {
        #expect(!isSendable(CombineIdentifier.self))
        #expect(!isSendable(ImmediateScheduler.self))
        #expect(!isSendable(ImmediateScheduler.SchedulerTimeType.self))
        #expect(!isSendable(ImmediateScheduler.SchedulerTimeType.Stride.self))
        #expect(!isSendable(AnyCancellable.self))
        #expect(!isSendable(AnyPublisher<Int, Never>.self))
        #expect(!isSendable(AnySubscriber<Int, Never>.self))
        #expect(!isSendable(PassthroughSubject<Int, Never>.self))
        #expect(!isSendable(CurrentValueSubject<Int, Never>.self))
        #expect(!isSendable(Just<Int>.self))
        #expect(!isSendable(Empty<Int, Never>.self))
        #expect(!isSendable(Fail<Int, URLError>.self))
        #expect(!isSendable(Future<Int, Never>.self))
        #expect(!isSendable(Record<Int, Never>.self))
        #expect(!isSendable(ObservableObjectPublisher.self))
        #expect(!isSendable(Publishers.Map<Just<Int>, Int>.self))
        #expect(!isSendable(Publishers.Sequence<[Int], Never>.self))
        #expect(!isSendable(Subscribers.Sink<Int, Never>.self))
    }

    #if !canImport(Combine)
    /// Foundation's and Dispatch's scheduler types: Apple documents no Sendable conformance for any of them, and
    /// `DispatchQueue.SchedulerTimeType.Stride` is known not to be (pointfreeco/swift-composable-architecture#3812), so
    /// Linux has none either. On Apple platforms they are Foundation's and Dispatch's, not Cadence's to pin.
    @Test func schedulersTimeTypesAreNotSendable() {
        #expect(!isSendable(DispatchQueue.SchedulerTimeType.self))
        #expect(!isSendable(DispatchQueue.SchedulerTimeType.Stride.self))
        #expect(!isSendable(DispatchQueue.SchedulerOptions.self))
        #expect(!isSendable(RunLoop.SchedulerTimeType.self))
        #expect(!isSendable(RunLoop.SchedulerTimeType.Stride.self))
        #expect(!isSendable(RunLoop.SchedulerOptions.self))
        #expect(!isSendable(OperationQueue.SchedulerTimeType.self))
        #expect(!isSendable(OperationQueue.SchedulerTimeType.Stride.self))
        #expect(!isSendable(OperationQueue.SchedulerOptions.self))
    }

    /// The list, pinned against the sources: the public types of the stand-in that declare a conformance to
    /// Sendable (in their declaration or in an extension, checked or `@unchecked`, or through a protocol that refines
    /// Sendable) are exactly Apple's two. `.ci/apple-sim` checks the same list on the built module's symbol graph.
    @Test func theStandInDeclaresSendableForAppleTwoTypesOnly() throws {
        let root = URL(fileURLWithPath: "\(#filePath)")
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources/CadenceCombine")
        var scan = SendableDeclarationScan()
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            scan.read(try String(contentsOf: file, encoding: .utf8))
        }
        #expect(scan.publicTypes.count >= 100)
        #expect(scan.publicTypes.contains("Subscribers.Demand"))
        #expect(scan.publicTypes.contains("DispatchQueue.SchedulerTimeType.Stride"))
        let sendable = scan.sendable.intersection(scan.publicTypes).sorted()
        #expect(sendable == ["Subscribers.Completion", "Subscribers.Demand"])
    }
    #endif
}

#if !canImport(Combine)
/// Reads Swift sources well enough to tell which public types they declare and which types they declare Sendable,
/// each by its name qualified with the types and extensions around it (`Subscribers.Demand`).
private struct SendableDeclarationScan {
    /// Every public or open type declared, qualified.
    private(set) var publicTypes: Set<String> = []
    /// Every type or extension whose inheritance clause names `Sendable` (or `@unchecked Sendable`), qualified.
    private(set) var sendable: Set<String> = []

    mutating func read(_ source: String) {
        // A declaration's modifiers, its kind and its name: `public final class Future`, `extension Subscribers`.
        let head =
            #/(?<modifiers>(?:\w+\s+)*)(?<kind>struct|class|enum|actor|protocol|extension)\s+(?<name>[A-Za-z_][\w.]*)/#
        let code = Self.withoutCommentsAndStrings(source)
        // One entry per open brace: the qualified name of the type or extension it opens, or nil for any other.
        var scopes: [String?] = []
        var index = code.startIndex
        while index < code.endIndex {
            let character = code[index]
            if character == "}" {
                _ = scopes.popLast()
                index = code.index(after: index)
            } else if character == "{" {
                scopes.append(nil)
                index = code.index(after: index)
            } else if Self.startsWord(at: index, in: code), let match = code[index...].prefixMatch(of: head),
                !["func", "var", "let", "subscript"].contains(match.name)
            { // not `class func`, `class var`
                let body = code[match.range.upperBound...].firstIndex(of: "{") ?? code.endIndex
                let header = code[match.range.upperBound..<body]
                let outer = scopes.last(where: { $0 != nil }).flatMap { $0 }
                let name =
                    match.kind == "extension" || outer == nil
                    ? String(match.name) : "\(outer!).\(match.name)"
                let modifiers = match.modifiers.split(whereSeparator: \.isWhitespace)
                if match.kind != "extension", modifiers.contains("public") || modifiers.contains("open") {
                    publicTypes.insert(name)
                }
                if Self.inherits(header).contains(where: { $0 == "Sendable" || $0 == "@unchecked Sendable" }) {
                    sendable.insert(name)
                }
                if body < code.endIndex {
                    scopes.append(name)
                    index = code.index(after: body)
                } else {
                    index = body
                }
            } else {
                index = code.index(after: index)
            }
        }
    }

    /// Whether a word starts at `index`: a letter that no identifier character precedes.
    private static func startsWord(at index: String.Index, in code: String) -> Bool {
        guard code[index].isLetter else { return false }
        guard index > code.startIndex else { return true }
        let previous = code[code.index(before: index)]
        return !(previous.isLetter || previous.isNumber || previous == "_" || previous == "." || previous == "@")
    }

    /// The items of a declaration's inheritance clause: what follows the generic parameters' `<…>` and a colon, up
    /// to a `where`.
    private static func inherits(_ header: Substring) -> [String] {
        var rest = header.drop { $0.isWhitespace }
        if rest.first == "<" {
            var depth = 0
            rest = rest.drop { character in
                if character == "<" { depth += 1 } else if character == ">" { depth -= 1 }
                return depth > 0 || character == "<"
            }.dropFirst()
        }
        rest = rest.drop { $0.isWhitespace }
        guard rest.first == ":" else { return [] }
        let clause = rest.dropFirst().split(separator: /\bwhere\b/).first ?? ""
        var items: [String] = []
        var depth = 0
        var current = ""
        for character in clause {
            if "<([".contains(character) { depth += 1 } else if ">)]".contains(character) { depth -= 1 }
            if character == ",", depth == 0 {
                items.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        items.append(current)
        return items.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
    }

    /// The source with its comments and string literals blanked, so that braces in them do not count.
    private static func withoutCommentsAndStrings(_ source: String) -> String {
        source
            .replacing(#/"""[\s\S]*?"""/#, with: "\"\"")
            .replacing(#/"(?:[^"\\\n]|\\.)*"/#, with: "\"\"")
            .replacing(#//\*[\s\S]*?\*//#, with: " ")
            .replacing(#///[^\n]*/#, with: "")
    }
}
#endif
