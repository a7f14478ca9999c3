import Testing

@testable import CadenceTesting

private typealias Row = FailureMessage.Row

/// A message with the given rows and, by default, a failed first step of two.
private func message(
    rows: [Row],
    showsTime: Bool = true,
    failedStep: Int? = 0,
    checkedSteps: Int = 1,
    difference: String? = nil
) -> String {
    FailureMessage(
        headline: "toEmit([1, 2]) failed: something went wrong.",
        expectCall: "expect(PassthroughSubject<Int, Never>)",
        calls: ["toEmit([1, 2])", "thenFinish()"],
        failedStep: failedStep,
        checkedSteps: checkedSteps,
        rows: rows,
        showsTime: showsTime,
        difference: difference
    ).text
}

@Suite("FailureMessage")
struct FailureMessageTests {
    @Test func aFailedStepIsCrossedAndLaterStepsAreNotChecked() {
        let text = message(rows: [
            Row(time: .tick(0), received: "subscription", expected: "", step: "", marked: false),
            Row(time: .tick(1), received: "1", expected: "1", step: "toEmit([1, 2])", marked: false),
            Row(time: .tick(12), received: "5", expected: "2", step: "toEmit([1, 2])", marked: true),
        ])
        #expect(
            text == """
                toEmit([1, 2]) failed: something went wrong.

                    expect(PassthroughSubject<Int, Never>)
                  ✗   .toEmit([1, 2])
                      .thenFinish()  (not checked)

                     tick  received      expected
                        0  subscription
                        1  1             1         toEmit([1, 2])
                  →    12  5             2         toEmit([1, 2])
                """)
    }

    @Test func passedStepsAreTicked() {
        let text = message(
            rows: [
                Row(time: .tick(0), received: "finished", expected: "(no step)", step: "", marked: true)
            ], failedStep: nil, checkedSteps: 2)
        #expect(
            text == """
                toEmit([1, 2]) failed: something went wrong.

                    expect(PassthroughSubject<Int, Never>)
                  ✓   .toEmit([1, 2])
                  ✓   .thenFinish()

                     tick  received  expected
                  →     0  finished  (no step)
                """)
    }

    @Test func aSecondFailedStepMarksTheFirstPassed() {
        let text = message(rows: [], failedStep: 1, checkedSteps: 2)
        #expect(text.contains("  ✓   .toEmit([1, 2])\n  ✗   .thenFinish()\n"))
    }

    @Test func withoutAClockThereIsNoTimeColumn() {
        let text = message(
            rows: [
                Row(time: nil, received: "subscription", expected: "", step: "", marked: false),
                Row(time: nil, received: "(nothing)", expected: "1", step: "toEmit([1, 2])", marked: true),
            ], showsTime: false)
        #expect(
            text.hasSuffix(
                """

                     received      expected
                     subscription
                  →  (nothing)     1         toEmit([1, 2])
                """))
    }

    @Test func wallClockTimeHasATimeColumnInMilliseconds() {
        let text = message(rows: [
            Row(time: .elapsed(.zero), received: "subscription", expected: "", step: "", marked: false),
            Row(
                time: .elapsed(.milliseconds(12.5)), received: "1", expected: "1", step: "toEmit([1, 2])", marked: false
            ),
            Row(
                time: .elapsed(.milliseconds(250)), received: "(nothing)", expected: "2", step: "toEmit([1, 2])",
                marked: true),
        ])
        #expect(
            text.hasSuffix(
                """

                         time  received      expected
                        +0 ms  subscription
                     +12.5 ms  1             1         toEmit([1, 2])
                  →   +250 ms  (nothing)     2         toEmit([1, 2])
                """))
    }

    @Test func aRowWithoutATimeInATimedTableShowsADash() {
        let text = message(rows: [
            Row(time: .tick(3), received: "subscription", expected: "", step: "", marked: false),
            Row(time: nil, received: "(nothing)", expected: "(a valid step)", step: "toEmit([1, 2])", marked: true),
        ])
        #expect(
            text.hasSuffix(
                """

                     tick  received      expected
                        3  subscription
                  →     —  (nothing)     (a valid step)  toEmit([1, 2])
                """))
    }

    @Test func cellsAreCutAtFortyCharacters() {
        let forty = String(repeating: "a", count: 40)
        let fortyOne = String(repeating: "b", count: 41)
        #expect(FailureMessage.cell(forty) == forty)
        #expect(FailureMessage.cell(fortyOne) == String(repeating: "b", count: 39) + "…")
        let text = message(rows: [
            Row(time: .tick(1), received: fortyOne, expected: forty, step: "toEmit([1, 2])", marked: true)
        ])
        #expect(
            text.hasSuffix(
                """
                     tick  received                                  expected
                  →     1  \(String(repeating: "b", count: 39))…  \(forty)  toEmit([1, 2])
                """))
    }

    @Test func aCutCellKeepsItsContractBrokenNote() {
        let value = String(repeating: "v", count: 30)
        #expect(
            FailureMessage.cell(value + " (contract broken)") == String(repeating: "v", count: 21)
                + "… (contract broken)")
        #expect(
            FailureMessage.cell("12345678901234567890 (contract broken)") == "12345678901234567890 (contract broken)")
    }

    @Test func cellsWithLineBreaksPrintOnOneLine() {
        #expect(FailureMessage.cell("User(\n    id: 1,\n    name: \"a\"\n)") == #"User( id: 1, name: "a" )"#)
        #expect(FailureMessage.cell("a\n\nb") == "a  b")
    }

    @Test func theDifferenceFollowsTheTimeline() {
        let text = message(
            rows: [
                Row(time: .tick(1), received: "[3]", expected: "[2]", step: "toEmit([1, 2])", marked: true)
            ], difference: "Difference (- expected, + received):\n  [\n-   2\n+   3\n  ]")
        #expect(
            text.hasSuffix(
                """
                  →     1  [3]       [2]       toEmit([1, 2])

                Difference (- expected, + received):
                  [
                -   2
                +   3
                  ]
                """))
    }

    @Test func linesEndWithoutTrailingSpaces() {
        let text = message(rows: [
            Row(time: .tick(0), received: "subscription", expected: "", step: "", marked: false),
            Row(time: .tick(1), received: "1", expected: "", step: "", marked: true),
        ])
        #expect(!text.split(separator: "\n").contains { $0.last == " " })
    }
}
