import Foundation
import Testing

extension Trait where Self == IssueHandlingTrait {
    /// Keeps the known issues a test records out of the run: out of its console and its count of known issues.
    ///
    /// For the project's own tests of deliberate failures. `withKnownIssue { } matching: { }` still sees each issue
    /// as recorded, and still checks its exact text and location: an issue it does not match stays an ordinary issue,
    /// which fails the test and is printed, and a `withKnownIssue` that matches nothing still records "Known issue was
    /// not recorded". Only the issues it has matched are dropped, so that a green run reads clean. It also drops the
    /// issues of a failed `toEmit(satisfying:)` check, which that step records as known issues and reports in its
    /// own failure message.
    ///
    /// Swift Testing tells a trait which issues are known from Swift 6.3; built with 6.2, the trait keeps every issue.
    static var quietKnownIssues: Self {
        .filterIssues { !isKnownIssue($0) }
    }
}

/// Whether `issue` is a known issue: an error that fails nothing (false for every issue before Swift 6.3).
func isKnownIssue(_ issue: Issue) -> Bool {
    #if compiler(>=6.3)
    return issue.severity == .error && !issue.isFailure
    #else
    return false
    #endif
}

/// `.quietKnownIssues`, seen from a trait listed before it: what still reaches the run.
@Suite struct QuietKnownIssuesTests {
    /// The issues of `aMatchedKnownIssueDoesNotReachTheRun` that got past `.quietKnownIssues`.
    static let matchedReached = Synchronized<[String]>([])
    /// The deliberate issues of `whatWithKnownIssueDoesNotMatchStillReachesTheRun` that got past
    /// `.quietKnownIssues`, kept from failing that test.
    static let unmatchedReached = Synchronized<[String]>([])

    /// An issue as a line: whether it is known, and its comments.
    static func line(_ issue: Issue) -> String {
        "\(isKnownIssue(issue) ? "known" : "failure"): \(issue.comments.map(\.rawValue).joined(separator: " "))"
    }

    #if compiler(>=6.3)
    @Test(
        .compactMapIssues { issue in
            QuietKnownIssuesTests.matchedReached.update { $0.append(QuietKnownIssuesTests.line(issue)) }
            return issue
        },
        .quietKnownIssues
    )
    func aMatchedKnownIssueDoesNotReachTheRun() {
        withKnownIssue {
            Issue.record("deliberate")
        } matching: { issue in
            issue.comments.map(\.rawValue) == ["deliberate"]
        }
        #expect(Self.matchedReached.value == [])
    }
    #endif

    @Test(
        .compactMapIssues { issue in
            guard issue.comments.first?.rawValue.hasPrefix("deliberate") == true else { return issue }
            QuietKnownIssuesTests.unmatchedReached.update { $0.append(QuietKnownIssuesTests.line(issue)) }
            return nil
        },
        .quietKnownIssues
    )
    func whatWithKnownIssueDoesNotMatchStillReachesTheRun() {
        withKnownIssue("deliberate: the issue expected") {
            Issue.record("deliberate: another issue")
        } matching: { issue in
            issue.comments.map(\.rawValue) == ["deliberate: the issue expected"]
        }
        #expect(
            Self.unmatchedReached.value == [
                "failure: deliberate: another issue",
                "failure: deliberate: the issue expected",
            ])
    }

    @Test("every test of the project's own that calls withKnownIssue keeps its known issues quiet")
    func everyWithKnownIssueIsQuiet() throws {
        let tests = repositoryFile("Tests")
        let enumerator = try #require(FileManager.default.enumerator(atPath: tests.path))
        let paths = enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
        var loud: [String] = []
        for path in paths where !"\(#filePath)".hasSuffix("/Tests/\(path)") {
            let source = try String(contentsOf: tests.appendingPathComponent(path), encoding: .utf8)
            let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() where Self.callsWithKnownIssue(line) {
                let quiet = ["@Test", "@Suite"].contains { attribute in
                    Self.attribute(attribute, before: index, in: lines)?.contains(".quietKnownIssues") == true
                }
                if !quiet { loud.append("Tests/\(path):\(index + 1)") }
            }
        }
        #expect(loud == [], "add .quietKnownIssues to the test or its suite")
    }

    /// Whether `line` is code that calls `withKnownIssue`, not a comment.
    private static func callsWithKnownIssue(_ line: Substring) -> Bool {
        line.contains("withKnownIssue") && !line.drop { $0 == " " }.hasPrefix("//")
    }

    /// The nearest `attribute` (`@Test`, `@Suite`) above line `index`, from its first line to its declaration's.
    private static func attribute(_ attribute: String, before index: Int, in lines: [Substring]) -> String? {
        guard let start = lines[..<index].lastIndex(where: { $0.drop { $0 == " " }.hasPrefix(attribute) }) else {
            return nil
        }
        let declaration = lines[start..<index].firstIndex { line in
            [" func ", "struct ", "class "].contains { line.contains($0) }
        }
        return lines[start...(declaration ?? index)].joined(separator: "\n")
    }
}
