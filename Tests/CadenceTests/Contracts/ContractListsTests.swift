import Foundation
import Testing

/// The "every operator" lists of this folder are kept by hand; this checks them against the operators the sources
/// declare — each `public func` of an `extension Publisher` in `Sources/CadenceCombine/Operators/` — so that a new
/// operator cannot be left out of them unnoticed. An operator counts as covered when a case of its list calls it
/// (`.name(`, `.name {`, `.name<` inside one of the file's `static let … = [` arrays of cases), by name: one case
/// covers every overload.
@Suite("The contract lists name every operator")
struct ContractListsTests {
    /// Which list must cover the operators of which families (the folders of `Sources/CadenceCombine/Operators/`).
    static let lists: [(file: String, families: Set<String>)] = [
        (
            "Tests/CadenceTests/Contracts/DemandContractTests.swift",
            ["Transforming", "Filtering", "Reducing", "Selecting", "Debugging", "Encoding"]
        ),
        (
            "Tests/CadenceTests/Contracts/MultiUpstreamContractTests.swift",
            ["Combining", "Flattening", "ErrorHandling", "Sharing"]
        ),
        ("Tests/CadenceTests/Contracts/TimeOperatorContractTests.swift", ["Time"]),
    ]

    /// The operators a list leaves out on purpose, by list file, each with its reason.
    static let exemptions: [String: [String: String]] = [
        "Tests/CadenceTests/Contracts/DemandContractTests.swift": [
            // The contract's upstream checks that no more is asked than the operator passes on.
            "replaceEmpty": "as Combine's, it asks its upstream for .unlimited (ReplaceEmptyTests pins that)",
            // The random scripts fail now and then; `breakpoint(receiveOutput:)` covers `Publishers.Breakpoint`.
            "breakpointOnError": "it raises SIGTRAP on every failure, and the random scripts send failures",
        ],
        "Tests/CadenceTests/Contracts/MultiUpstreamContractTests.swift": [
            // A one-upstream operator filed under error handling, as in Combine; its own suite checks its demand.
            "assertNoFailure": "it stops the process on a failure, and the random upstreams send failures",
            // As in Combine, it needs `Failure == Never`; `multicastAutoconnect` covers the connectable path it uses.
            "makeConnectable": "it takes only upstreams that cannot fail, and the contract's upstreams fail",
        ],
    ]

    /// The repository's root: three folders up from this file's folder (`Tests/CadenceTests/Contracts/`).
    static let root = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func text(of path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The families: the folders of `Sources/CadenceCombine/Operators/`.
    static func families() throws -> Set<String> {
        let folder = root.appendingPathComponent("Sources/CadenceCombine/Operators").path
        return Set(try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") })
    }

    /// Every operator of `family`: its name and the file that declares it, in the files' order.
    static func operators(of family: String) throws -> [(name: String, file: String)] {
        let folder = "Sources/CadenceCombine/Operators/\(family)"
        let files = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(".swift") }.sorted()
        return try files.flatMap { file in
            let path = "\(folder)/\(file)"
            return operatorNames(in: try text(of: path)).map { ($0, path) }
        }
    }

    /// The names of the `public func`s declared directly in the `extension Publisher` blocks of `source`.
    static func operatorNames(in source: String) -> [String] {
        var names: [String] = []
        var inPublisherExtension = false
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("extension Publisher ") {
                inPublisherExtension = true
            } else if line.hasPrefix("}") {
                inPublisherExtension = false
            } else if inPublisherExtension, line.hasPrefix("    "), !line.hasPrefix("     ") {
                var words = line.split(separator: " ")[...]
                while words.first?.hasPrefix("@") == true { words = words.dropFirst() }
                guard words.starts(with: ["public", "func"]), words.count > 2 else { continue }
                let name = words[words.startIndex + 2].drop { $0 == "`" }
                    .prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                names.append(String(name))
            }
        }
        return names
    }

    /// The text of the arrays of cases in `file`: each `static let … = [` member, to its closing `    ]`.
    static func cases(in file: String) -> String {
        var lines: [Substring] = []
        var inCases = false
        for line in file.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("    static let "), line.hasSuffix("= [") {
                inCases = true
            } else if line == "    ]" {
                inCases = false
            } else if inCases {
                lines.append(line)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Whether the cases `list` call `name`.
    static func calls(_ list: String, _ name: String) -> Bool {
        ["(", " {", "{", "<"].contains { list.contains(".\(name)\($0)") || list.contains(".`\(name)`\($0)") }
    }

    @Test func everyFamilyHasItsList() throws {
        let listed = Self.lists.reduce(into: Set<String>()) { $0.formUnion($1.families) }
        #expect(try Self.families() == listed, "a folder of Sources/CadenceCombine/Operators/ is not given a list")
    }

    @Test(arguments: lists.map(\.file))
    func everyOperatorIsInItsList(list file: String) throws {
        let families = try #require(Self.lists.first { $0.file == file }?.families)
        let list = Self.cases(in: try Self.text(of: file))
        let exempt = Self.exemptions[file] ?? [:]
        var declared: Set<String> = []
        for family in families.sorted() {
            for (name, source) in try Self.operators(of: family) where declared.insert(name).inserted {
                guard exempt[name] == nil else { continue }
                #expect(
                    Self.calls(list, name),
                    """
                    \(name) (\(source)) is missing from \(file): add a case that calls it there, or an exemption \
                    with its reason to ContractListsTests.exemptions
                    """)
            }
        }
        for name in exempt.keys.sorted() {
            #expect(declared.contains(name), "\(file) exempts \(name), which its families do not declare")
            #expect(!Self.calls(list, name), "\(file) exempts \(name) and calls it too: drop the exemption")
        }
        #expect(!declared.isEmpty, "no operators found for \(file): has Sources/CadenceCombine/Operators moved?")
    }
}
