import CadenceTesting
import Foundation
import Testing

/// A failure message with its wall-clock times masked, so that an exact-text test does not depend on timing.
///
/// Every `+<n> ms` time (`+12.5 ms`, `+0 ms`, `+1003 ms`) becomes `+… ms`, and the padding that right-aligns the
/// timeline's time column is dropped (its width follows the longest time): a header `"        time  received"` and
/// a row `"  →  +12.5 ms  2"` read `"     time  received"` and `"  →  +… ms  2"`. Everything else — the headline
/// (timeouts read `"within the 200 ms timeout"`, not masked), the chain, the other columns — is compared exactly.
func maskingTimes(_ message: String) -> String {
    let masked = message.replacing(/\+\d+(\.\d)? ms/, with: "+… ms")
    return masked.split(separator: "\n", omittingEmptySubsequences: false).map { line in
        guard let match = line.wholeMatch(of: /(     |  →  ) +((time|\+… ms).*)/) else { return String(line) }
        return String(match.output.1 + match.output.2)
    }.joined(separator: "\n")
}

/// Runs `body` with a recording reporter and checks that it reported exactly `expected`, message for message, once
/// their times are masked with ``maskingTimes(_:)`` — only their first lines when `headlinesOnly`.
func expectWallClockFailures(
    _ expected: [String],
    headlinesOnly: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async rethrows {
    let messages = try await recordingFailures(body).map { failure in
        let masked = maskingTimes(failure.message)
        return headlinesOnly ? String(masked.prefix { $0 != "\n" }) : masked
    }
    if messages != expected {
        func list(_ messages: [String]) -> String {
            messages.isEmpty
                ? "(none)"
                : messages.enumerated().map { "[\($0.offset)]\n\($0.element)" }
                    .joined(separator: "\n")
        }
        Issue.record(
            Comment(
                rawValue: "reported failures differ (times masked)\n--- expected ---\n\(list(expected))\n"
                    + "--- received ---\n\(list(messages))"),
            sourceLocation: sourceLocation
        )
    }
}

/// A value handed to another thread or task whose own thread safety makes that safe (a subject, an expectation's
/// continuation): the tests send values from a `DispatchQueue` through it.
struct CrossThread<Value>: @unchecked Sendable { // nothing: the wrapped value guards its own state
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A value that a test shares with other threads and tasks, behind a lock.
final class SharedBox<Value>: @unchecked Sendable { // `lock` guards `stored`
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value { lock.withLock { stored } }

    func mutate<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&stored) }
    }
}
