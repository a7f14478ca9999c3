import Foundation
import Testing

/// ARCHITECTURE.md's rules, checked against the sources: which module imports which, and where
/// `canImport(Combine)` may appear.
@Suite("ARCHITECTURE.md")
struct ArchitectureTests {
    /// The package's own modules.
    static let packageModules: Set<String> = ["CadenceSupport", "CadenceCombine", "Cadence", "CadenceTesting"]

    /// What each module may import of the package, and which outside modules it must never import.
    static let rules: [(module: String, packageImports: Set<String>, forbidden: Set<String>)] = [
        ("CadenceSupport", [], ["Combine", "Testing", "XCTest", "Foundation"]),
        ("CadenceCombine", ["CadenceSupport"], ["Combine", "Testing", "XCTest"]),
        ("Cadence", ["CadenceSupport", "CadenceCombine"], ["Testing", "XCTest"]),
        ("CadenceTesting", ["CadenceSupport", "Cadence"], ["CadenceCombine"]),
    ]

    /// The files that ARCHITECTURE.md lists as the boundary with Apple's Combine.
    static let boundaryFiles: Set<String> = [
        "Sources/Cadence/Cadence.swift",
        "Sources/Cadence/Foundation/NotificationCenter.Publisher.swift",
        "Sources/Cadence/Foundation/Timer.TimerPublisher.swift",
        "Sources/Cadence/Foundation/URLSession.DataTaskPublisher.swift",
        "Sources/Cadence/TestSchedulers/DispatchQueue+TestScheduler.swift",
    ]

    /// Every Swift file under `Sources/<module>`, as a path from the repository's root.
    static func swiftFiles(of module: String) throws -> [String] {
        let folder = repositoryFile("Sources/\(module)")
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder.path))
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
            .map { "Sources/\(module)/\($0)" }
    }

    /// The modules `source` imports (`import X`, `@_exported import X`, `@testable import X`).
    static func imports(in source: String) -> Set<String> {
        Set(
            source.split(separator: "\n").compactMap { line -> String? in
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                    words[..<index].allSatisfy({ $0.hasPrefix("@") })
                else { return nil }
                return String(words[index + 1])
            })
    }

    @Test(arguments: rules.map(\.module))
    func eachModuleImportsOnlyWhatItMay(module: String) throws {
        let rule = try #require(Self.rules.first { $0.module == module })
        for path in try Self.swiftFiles(of: module) {
            let source = try String(contentsOf: repositoryFile(path), encoding: .utf8)
            let imported = Self.imports(in: source)
            let ofThePackage = imported.intersection(Self.packageModules)
            #expect(ofThePackage.isSubset(of: rule.packageImports), "\(path) imports \(ofThePackage.sorted())")
            #expect(imported.isDisjoint(with: rule.forbidden), "\(path) imports \(imported.sorted())")
            if module == "Cadence", path != "Sources/Cadence/Cadence.swift" {
                #expect(!imported.contains("CadenceCombine"), "\(path) names CadenceCombine")
            }
        }
    }

    @Test func canImportCombineAppearsOnlyInTheBoundaryFiles() throws {
        var found: Set<String> = []
        for module in Self.packageModules {
            for path in try Self.swiftFiles(of: module)
            where try String(contentsOf: repositoryFile(path), encoding: .utf8).contains("canImport(Combine)") {
                found.insert(path)
            }
        }
        #expect(found == Self.boundaryFiles)
        let architecture = try String(contentsOf: repositoryFile("ARCHITECTURE.md"), encoding: .utf8)
        for path in Self.boundaryFiles {
            #expect(architecture.contains("`\(path)`"), "ARCHITECTURE.md does not list \(path)")
        }
    }

    @Test func theManifestDeclaresTheModulesOfTheTable() throws {
        let manifest = try String(contentsOf: repositoryFile("Package.swift"), encoding: .utf8)
        let architecture = try String(contentsOf: repositoryFile("ARCHITECTURE.md"), encoding: .utf8)
        for module in Self.packageModules {
            #expect(manifest.contains(".target(name: \"\(module)\""), "Package.swift does not declare \(module)")
            #expect(architecture.contains("| `\(module)` | `Sources/\(module)` |"), "ARCHITECTURE.md has no row")
        }
    }

    /// The public and package types that `source`, the file at `path`, declares at its top level under a name its
    /// file does not carry: a type `T` belongs in `T.swift`, `T+Concern.swift` or `Namespace.T.swift`.
    static func typesOutOfPlace(in source: String, path: String) -> [String] {
        let file = String(path.split(separator: "/").last ?? "").replacingOccurrences(of: ".swift", with: "")
        let kinds: Set<Substring> = ["struct", "class", "enum", "protocol", "actor"]
        return source.split(separator: "\n").compactMap { line -> String? in
            guard let first = line.first, first != " ", first != "/" else { return nil }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "<" || $0 == ":" || $0 == "{" })
            guard let kind = words.firstIndex(where: { kinds.contains($0) }), kind + 1 < words.count,
                words[..<kind].contains(where: { ["public", "open", "package"].contains($0) })
            else { return nil }
            let name = String(words[kind + 1])
            let placed = file == name || file.hasPrefix(name + "+") || file.hasSuffix("." + name)
            return placed ? nil : "\(path): \(name)"
        }
    }

    @Test(arguments: packageModules.sorted())
    func eachPublicTypeIsInAFileOfItsName(module: String) throws {
        var misplaced: [String] = []
        for path in try Self.swiftFiles(of: module) {
            let source = try String(contentsOf: repositoryFile(path), encoding: .utf8)
            misplaced += Self.typesOutOfPlace(in: source, path: path)
        }
        #expect(misplaced == [], "each type goes in a file of its name (T.swift, T+Concern.swift): \(misplaced)")
    }

    @Test func theFileNameCheckFindsATypeInAnotherTypesFile() {
        let source = """
            public struct Recorder {}
            @usableFromInline package final class RecorderBox<T>: Sendable {}
            struct Helper {}
            extension Recorder {
                public struct Nested {}
            }
            """
        #expect(
            Self.typesOutOfPlace(in: source, path: "Sources/M/Recorder.swift") == [
                "Sources/M/Recorder.swift: RecorderBox"
            ])
        #expect(
            Self.typesOutOfPlace(in: source, path: "Sources/M/Recorder+Box.swift") == [
                "Sources/M/Recorder+Box.swift: RecorderBox"
            ])
        #expect(Self.typesOutOfPlace(in: "public enum Demand {}", path: "Sources/M/Subscribers.Demand.swift") == [])
    }
}
