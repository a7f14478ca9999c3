import CadenceTesting
import Foundation
import Testing

/// What a failure keeps beside its message: the whole timeline, which the message cuts to 40 rows, and `record()`'s
/// steps ready to paste — and, under Swift Testing, the files `--attachments-path` writes from them.
@Suite struct FailureAttachmentTests {
    @Test func aFailedChainAttachesItsWholeTimeline() {
        let line = #line + 2
        let failures = recordingFailures {
            expect((1...60).publisher).toEmit(Array(1...29) + [0] + Array(31...60)).thenFinish()
        }
        let call = "toEmit([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (47 more), 58, 59, 60])"
        func row(_ marker: String, _ received: String, _ expected: String) -> String {
            marker + received.padding(toLength: 14, withPad: " ", startingAt: 0)
                + expected.padding(toLength: 10, withPad: " ", startingAt: 0) + call
        }
        let rows =
            (1...29).map { row("     ", "\($0)", "\($0)") } + [row("  →  ", "30", "0")] + (31...60).map { "     \($0)" }
        let whole = [
            "\(call) failed: value 30 of 60 differs: expected 0, received 30.",
            "",
            "    expect(Publishers.Sequence<ClosedRange<Int>, Never>)",
            "  ✗   .\(call)",
            "      .thenFinish()  (not checked)",
            "",
            "     received      expected",
            "     subscription",
        ]
        #expect(failures.first?.message.contains("\n     … (15 rows left out)\n") == true)
        #expect(
            failures.first?.attachments == [
                FailureAttachment(
                    name: "expect line \(line) timeline.txt",
                    text: (whole + rows + ["     finished"]).joined(separator: "\n") + "\n"
                )
            ])
    }

    @Test func aRecordingAttachesItsStepsReadyToPaste() {
        let clock = VirtualClock()
        let feed: TestPublisher<Int, Never> = clock.hot([
            (0, .value(1)), (5, .value(2)), (5, .value(3)), (400, .finished),
        ])
        let line = #line + 2
        let failures = recordingFailures {
            expect(feed, on: clock).record()
        }
        #expect(
            failures.first?.attachments == [
                FailureAttachment(
                    name: "expect line \(line) timeline.txt", text: (failures.first?.message ?? "") + "\n"
                ),
                FailureAttachment(
                    name: "expect line \(line) steps.txt",
                    text: """
                        .toEmit(1, within: .ticks(0))
                        .thenEmit([2, 3], within: .ticks(5))
                        .thenFinish(within: .ticks(395))

                        """
                ),
            ])
    }

    @Test func aRecordingOfNothingAttachesNoSteps() {
        let clock = VirtualClock()
        let feed: TestPublisher<Int, Never> = clock.hot([])
        let failures = recordingFailures {
            expect(feed, on: clock).record()
        }
        #expect(failures.first?.attachments.map { $0.name.hasSuffix(" timeline.txt") } == [true])
    }
}

#if os(Linux)
// Linux only: the test runs this package's test binary again, which SwiftPM builds as an executable (`….xctest`)
// on Linux; on Apple platforms it is a bundle that only a test runner loads.
extension FailureAttachmentTests {
    /// Set in the child process: the test then fails on purpose, instead of running the child.
    private static let probeVariable = "CADENCE_ATTACHMENT_PROBE"

    /// The line of ``failOnPurpose()``'s `expect`.
    private static let probeLine = #line + 6

    /// What the child process runs: a recording, which always fails.
    private static func failOnPurpose() {
        let clock = VirtualClock()
        let feed: TestPublisher<Int, Never> = clock.hot([(0, .value(1)), (5, .value(2)), (400, .finished)])
        expect(feed, on: clock).record()
    }

    @Test func swiftTestingWritesAFailuresAttachmentsToFiles() throws {
        if ProcessInfo.processInfo.environment[Self.probeVariable] == "1" {
            Self.failOnPurpose()
            return
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("cadence-attachments-\(UUID().uuidString)")
        let attachments = directory.appendingPathComponent("attachments")
        try FileManager.default.createDirectory(at: attachments, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("output.txt")
        let status = try runThisTest(attachmentsPath: attachments, output: output)
        let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        #expect(status == 1, "the child's test fails on purpose; it printed:\n\(printed)")

        let prefix = "swiftTestingWritesAFailuresAttachmentsToFiles expect line \(Self.probeLine) "
        let names = try FileManager.default.contentsOfDirectory(atPath: attachments.path).sorted()
        #expect(names == [prefix + "steps.txt", prefix + "timeline.txt"], "the child printed:\n\(printed)")
        let read = { (name: String) in
            (try? String(contentsOf: attachments.appendingPathComponent(prefix + name), encoding: .utf8)) ?? ""
        }
        #expect(
            read("steps.txt") == """
                .toEmit(1, within: .ticks(0))
                .thenEmit(2, within: .ticks(5))
                .thenFinish(within: .ticks(395))

                """)
        #expect(
            read("timeline.txt") == """
                record() failed: it recorded 3 events, written below as steps and as a marble diagram to paste in \
                its place (record() always fails, so that it is not left in).

                    expect(TestPublisher<Int, Never>)
                  ✗   .record()

                     tick  received      expected
                        0  subscription
                        0  1                       record()
                        5  2                       record()
                      400  finished                record()

                Recorded as steps:
                    .toEmit(1, within: .ticks(0))
                    .thenEmit(2, within: .ticks(5))
                    .thenFinish(within: .ticks(395))

                Recorded as a marble diagram:
                    .toMatch("a----b 394ms |", values: ["a": 1, "b": 2])

                """)
    }

    /// Runs this test in a child process of the test binary, with `--attachments-path attachmentsPath`, its output
    /// written to `output`; returns its exit status.
    private func runThisTest(attachmentsPath: URL, output: URL) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0])
        process.arguments = [
            "--testing-library", "swift-testing",
            "--filter", "FailureAttachmentTests/swiftTestingWritesAFailuresAttachmentsToFiles",
            "--attachments-path", attachmentsPath.path,
        ]
        process.environment = ProcessInfo.processInfo.environment.merging([Self.probeVariable: "1"]) { $1 }
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
#endif
