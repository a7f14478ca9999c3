import CadenceTesting
import Testing

/// Runs `body` with a recording reporter and checks that it reported exactly `expected`, message for message.
///
/// A mismatch is recorded at the caller with both texts in full, so an exact-text test shows what changed.
func expectFailures(
    _ expected: [String],
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) rethrows {
    let messages = try recordingFailures(body).map(\.message)
    if messages != expected {
        Issue.record(
            Comment(rawValue: differingReports(expected: expected, received: messages)), sourceLocation: sourceLocation
        )
    }
}

/// Runs `body` with a recording reporter and checks that it reported exactly `expected`, message for message.
func expectFailures(
    _ expected: [String],
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async rethrows {
    let messages = try await recordingFailures(body).map(\.message)
    if messages != expected {
        Issue.record(
            Comment(rawValue: differingReports(expected: expected, received: messages)), sourceLocation: sourceLocation
        )
    }
}

/// Runs `body` with a recording reporter and checks that it reported no failure.
func expectNoFailures(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) rethrows {
    try expectFailures([], sourceLocation: sourceLocation, body)
}

/// Both lists of messages in full, for a mismatch.
func differingReports(expected: [String], received: [String]) -> String {
    func list(_ messages: [String]) -> String {
        messages.isEmpty
            ? "(none)"
            : messages.enumerated().map { "[\($0.offset)]\n\($0.element)" }
                .joined(separator: "\n")
    }
    return "reported failures differ\n--- expected ---\n\(list(expected))\n--- received ---\n\(list(received))"
}
