import Foundation
import Testing

/// Checks that a Markdown page of the repository shows only code that is compiled and run somewhere: every block
/// fenced as ```` ```swift ```` or ```` ```text ```` appears, line for line and indented as a whole, in one of the
/// given source files. Blocks fenced with another info string (```` ```swift before ````, ```` ```sh ````,
/// ```` ```yaml ````) are not checked; use them only for code that is not Cadence code (a replaced XCTest sample, a
/// shell command, a manifest snippet).
///
/// Paths are relative to the repository's root, e.g. `"Guides/VirtualTime.md"` and
/// `"Tests/CadenceTestingTests/Documentation/VirtualTimeGuideTests.swift"` or `"Examples/Sources/…"`.
///
/// ```swift
/// @Test func theGuideShowsOnlyTestedCode() throws {
///     try expectDocumentedSamples(in: "Guides/VirtualTime.md", appearIn: [#filePath], atLeast: 6)
/// }
/// ```
func expectDocumentedSamples(
    in page: String,
    appearIn sources: [String],
    atLeast minimum: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let markdown = try String(contentsOf: repositoryFile(page), encoding: .utf8)
    let files = try sources.map { path in
        try String(contentsOf: repositoryFile(path), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
    }
    let blocks = checkedBlocks(in: markdown)
    #expect(
        blocks.count >= minimum,
        "\(page) shows \(blocks.count) checked blocks, fewer than \(minimum)",
        sourceLocation: sourceLocation
    )
    for block in blocks where !files.contains(where: { appears(block, in: $0) }) {
        let places = sources.map(shortPath).joined(separator: ", ")
        let text = block.joined(separator: "\n")
        Issue.record("a block of \(page) is not in \(places):\n\(text)", sourceLocation: sourceLocation)
    }
}

/// The URL of `path` inside the repository; absolute paths (such as `#filePath`) are taken as they are.
func repositoryFile(_ path: String) -> URL {
    if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
    return repositoryRoot.appendingPathComponent(path)
}

/// The repository's root: three folders up from this file (`Tests/CadenceTestingTests/Support/`).
let repositoryRoot: URL = URL(fileURLWithPath: "\(#filePath)")
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// `path` relative to the repository's root, for messages.
private func shortPath(_ path: String) -> String {
    let root = repositoryRoot.path + "/"
    return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
}

/// The lines of each block of `markdown` fenced as ```` ```swift ```` or ```` ```text ````.
func checkedBlocks(in markdown: String) -> [[Substring]] {
    var blocks: [[Substring]] = []
    var current: [Substring]?
    var checked = false
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
        let trimmed = line.drop { $0 == " " }
        guard trimmed.hasPrefix("```") else {
            current?.append(line)
            continue
        }
        if let block = current {
            if checked { blocks.append(block) }
            current = nil
        } else {
            let info = trimmed.dropFirst(3)
            checked = info == "swift" || info == "text"
            current = []
        }
    }
    return blocks
}

/// Whether `block` is a run of consecutive lines of `lines`, each indented by the same spaces.
func appears(_ block: [Substring], in lines: [Substring]) -> Bool {
    guard let first = block.first, !first.isEmpty, lines.count >= block.count else { return false }
    for start in lines.indices.dropLast(block.count - 1) where lines[start].hasSuffix(first) {
        let indent = lines[start].dropLast(first.count)
        guard indent.allSatisfy({ $0 == " " }) else { continue }
        let found = zip(block, lines[start...]).allSatisfy { wanted, line in
            wanted.isEmpty ? line.allSatisfy { $0 == " " } : line == indent + wanted
        }
        if found { return true }
    }
    return false
}

@Suite("Documentation samples checker")
struct DocumentationSamplesTests {
    @Test func findsFencedBlocksAndSkipsOtherFences() {
        let markdown = """
            Intro
            ```swift
            let a = 1
            ```
            ```swift before
            let old = 0
            ```
            ```text
            failed
            ```
            ```sh
            swift test
            ```
            """
        #expect(checkedBlocks(in: markdown) == [["let a = 1"], ["failed"]])
    }

    @Test func aBlockAppearsOnlyAsConsecutiveLinesIndentedAlike() {
        let source: [Substring] = ["func f() {", "    let a = 1", "", "    let b = 2", "}"]
        #expect(appears(["let a = 1", "", "let b = 2"], in: source))
        #expect(!appears(["let a = 1", "let b = 2"], in: source))
        #expect(!appears(["let c = 3"], in: source))
        #expect(!appears(["func f() {", "let a = 1"], in: source))
    }
}
