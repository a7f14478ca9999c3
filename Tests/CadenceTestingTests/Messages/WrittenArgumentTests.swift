#if DEBUG
@testable import CadenceTesting
import Testing

@Suite("A step's budget, shown as the test wrote it")
struct WrittenArgumentTests {
    @Test("a budget written in milliseconds is shown in milliseconds, not in the ticks that equal it")
    func milliseconds() {
        let failures = recordingFailures {
            expect(Just(1)).toEmit(2, within: .milliseconds(200))
        }
        #expect(failures.first?.message.contains("✗   .toEmit(2, within: .milliseconds(200))") == true)
        #expect(failures.first?.message.contains(".ticks(200)") == false)
    }

    @Test("a budget written in ticks stays in ticks, across lines and after a comment")
    func ticksAcrossLines() {
        let failures = recordingFailures {
            expect(Just(1)).toEmit(
                2, // the wrong value
                within: .ticks(5)
            )
        }
        #expect(failures.first?.message.contains("✗   .toEmit(2, within: .ticks(5))") == true)
    }

    @Test("a budget held in a variable is shown as its value")
    func variable() {
        let budget = Duration.milliseconds(300)
        let failures = recordingFailures {
            expect(Just(1)).toEmit(2, within: budget)
        }
        #expect(failures.first?.message.contains("✗   .toEmit(2, within: .ticks(300))") == true)
    }

    @Test("the top-level arguments are split at their commas, whatever strings, calls and comments hold")
    func splitsArguments() {
        let lines: [Substring] = [
            #"    x.toEmit(["a, b", "(c"], where: { $0 > 1 }, // a comment, with (a paren"#,
            #"        within: .seconds(f(1, 2)))"#,
        ]
        #expect(
            WrittenArgument.argumentList(in: lines, line: 1, column: 13) == [
                #"["a, b", "(c"]"#, " where: { $0 > 1 }", "          within: .seconds(f(1, 2))",
            ])
    }

    @Test(
        "source that is not a complete argument list gives nothing",
        arguments: [
            (["f(1, 2)"], 1), // the location is not a parenthesis
            (["f(1, 2"], 2), // never closed
            (["f(\"\"\"", "a", "\"\"\")"], 2), // a multi-line string
            (["f(\"open)"], 2), // a string never closed on its line
            (["f(1)"], 9), // past the end of the line
        ] as [([Substring], Int)])
    func unreadable(lines: [Substring], column: Int) {
        #expect(WrittenArgument.argumentList(in: lines, line: 1, column: column) == nil)
    }

    @Test("a file that cannot be read gives nothing, and the message falls back to the value")
    func unreadableFile() {
        let location = SourceCodeLocation(
            fileID: "App/Missing.swift", filePath: "/nonexistent/Missing.swift", line: 1,
            column: 1)
        #expect(WrittenArgument.text(labelled: "within", at: location) == nil)
        #expect(
            StepText.call("toEmit", "2", .within(.milliseconds(200)), writtenAt: location)
                == "toEmit(2, within: .ticks(200))")
    }
}
#endif
