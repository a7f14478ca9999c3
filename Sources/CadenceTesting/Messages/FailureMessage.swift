import CadenceSupport

/// Lays out a chain's failure message: a headline, the chain as written with the failing step marked, the timeline
/// of received events against what the steps expected with the first divergence marked, and — when two values differ
/// inside — their field-by-field difference. Guides/FailureMessages.md documents the format.
///
/// ```text
/// toEmit([1, 2, 3]) failed: value 2 of 3 differs: expected 2, received 5 at tick 2.
///
///     expect(PassthroughSubject<Int, Never>)
///   ✗   .toEmit([1, 2, 3])
///       .thenFinish(within: .ticks(5))  (not checked)
///
///      tick  received      expected
///         0  subscription
///         1  1             1         toEmit([1, 2, 3])
///   →     2  5             2         toEmit([1, 2, 3])
/// ```
struct FailureMessage {
    /// One row of the timeline.
    struct Row {
        var time: EventTime?
        var received: String
        var expected: String
        var step: String
        var marked: Bool
    }

    /// The first sentence, with its full stop.
    var headline: String
    /// `"expect(PassthroughSubject<Int, Never>)"`.
    var expectCall: String
    /// The steps' calls, in order, without a leading dot.
    var calls: [String]
    /// The index of the failing step, if a step failed.
    var failedStep: Int?
    /// How many steps had run (passed or failed) — later ones are "not checked".
    var checkedSteps: Int
    var rows: [Row]
    /// Whether the timeline has a time column.
    var showsTime: Bool
    /// A field-by-field difference to print under the timeline.
    var difference: String?
    /// `record()`'s steps, one call a line, ready to paste in its place; nil for any other failure.
    var recordedSteps: [String]? = nil

    /// The whole message, its timeline cut to ``maxRows`` rows.
    var text: String { text(cut: true) }

    /// The message with every row of its timeline, however long.
    var wholeText: String { text(cut: false) }

    /// The failure to report at `location`, with what the message leaves out attached: the message with its whole
    /// timeline, and `record()`'s steps, each named after the `expect` at line `expectLine` of the test.
    ///
    /// ```text
    /// expect line 12 timeline.txt
    /// expect line 12 steps.txt
    /// ```
    func failure(at location: SourceCodeLocation, expectLine: Int) -> ExpectationFailure {
        var attachments = [FailureAttachment(name: "expect line \(expectLine) timeline.txt", text: wholeText + "\n")]
        if let recordedSteps, !recordedSteps.isEmpty {
            attachments.append(
                FailureAttachment(
                    name: "expect line \(expectLine) steps.txt", text: recordedSteps.joined(separator: "\n") + "\n"
                ))
        }
        return ExpectationFailure(message: text, location: location, attachments: attachments)
    }

    /// The message, its timeline cut to ``maxRows`` rows when `cut`.
    private func text(cut: Bool) -> String {
        var lines = [headline, ""]
        lines.append("    \(expectCall)")
        for (index, call) in calls.enumerated() {
            let marker = index == failedStep ? "✗ " : (index < checkedSteps ? "✓ " : "  ")
            let note = index < checkedSteps ? "" : "  (not checked)"
            lines.append("  \(marker)  .\(call)\(note)")
        }
        lines.append("")
        lines.append(contentsOf: table(cut: cut))
        if let difference {
            lines.append("")
            lines.append(difference)
        }
        return lines.joined(separator: "\n")
    }

    /// The most rows a timeline shows: a longer one keeps its first ``headRows``, the rows around its first marked
    /// row (``rowsBeforeMark`` before it, ``rowsFromMark`` from it on) and its last ``tailRows``, and says how many it
    /// left out in between — so a failure in a chain of a hundred thousand events stays a screenful.
    static let maxRows = 40
    static let headRows = 5
    static let rowsBeforeMark = 10
    static let rowsFromMark = 20
    static let tailRows = 5

    /// A line of the table below its header: a row, or how many rows were left out there.
    private enum Line {
        case row(Row, time: String)
        case gap(Int)
    }

    /// The table's lines: every row, or — past ``maxRows``, when `cut` — the rows kept and a gap for each run left
    /// out.
    private func lines(cut: Bool) -> [Line] {
        let times = rows.map { $0.time.map(Self.timeCell) ?? "—" }
        guard cut, rows.count > Self.maxRows else { return zip(rows, times).map { Line.row($0, time: $1) } }
        let mark = rows.firstIndex(where: \.marked) ?? 0
        // Three runs, in order and within bounds; where they overlap, a row is shown once.
        let runs = [
            0..<Self.headRows,
            max(0, mark - Self.rowsBeforeMark)..<min(rows.count, mark + Self.rowsFromMark),
            (rows.count - Self.tailRows)..<rows.count,
        ]
        var lines: [Line] = []
        var next = 0
        for run in runs where run.upperBound > next {
            let start = max(run.lowerBound, next)
            if start > next { lines.append(.gap(start - next)) }
            for index in start..<run.upperBound { lines.append(.row(rows[index], time: times[index])) }
            next = run.upperBound
        }
        return lines
    }

    /// The timeline, as aligned columns.
    private func table(cut: Bool) -> [String] {
        let lines = lines(cut: cut)
        let shown = lines.compactMap { line -> (row: Row, time: String)? in
            if case let .row(row, time) = line { return (row, time) }
            return nil
        }
        let timeHeader = rows.contains { if case .elapsed = $0.time { true } else { false } } ? "time" : "tick"
        let timeWidth = max(timeHeader.count, shown.map(\.time.count).max() ?? 0)
        let receivedWidth = max("received".count, shown.map { Self.cell($0.row.received).count }.max() ?? 0)
        let expectedWidth = max("expected".count, shown.map { Self.cell($0.row.expected).count }.max() ?? 0)
        func text(_ marker: String, _ time: String, _ received: String, _ expected: String, _ step: String) -> String {
            var line = marker
            if showsTime { line += String(repeating: " ", count: timeWidth - time.count) + time + "  " }
            line += received.padding(toLength: receivedWidth, withPad: " ", startingAt: 0) + "  "
            line += expected.padding(toLength: expectedWidth, withPad: " ", startingAt: 0) + "  " + step
            return String(line.reversed().drop { $0 == " " }.reversed())
        }
        var table = [text("     ", timeHeader, "received", "expected", "")]
        for line in lines {
            switch line {
            case let .row(row, time):
                let marker = row.marked ? "  →  " : "     "
                table.append(text(marker, time, Self.cell(row.received), Self.cell(row.expected), row.step))
            case let .gap(count):
                table.append("     … (\(count == 1 ? "1 row" : "\(count.formatted) rows") left out)")
            }
        }
        return table
    }

    /// `"5"` for a tick, `"+12.5 ms"` for wall-clock time.
    private static func timeCell(_ time: EventTime) -> String {
        switch time {
        case let .tick(tick): "\(tick)"
        case let .elapsed(duration): "+\(EventTime.milliseconds(duration)) ms"
        }
    }

    /// The most characters a table cell shows.
    static let cellWidth = 40

    /// The note after a received event that broke the subscription contract, which a cut cell keeps.
    static let contractBroken = " (contract broken)"

    /// A table cell: at most ``cellWidth`` characters on one line (longer values are cut with an ellipsis — before a
    /// `(contract broken)` note, which stays; the difference under the table shows them whole).
    static func cell(_ text: String) -> String {
        let flat = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingPrefix(while: \.isWhitespace) }.joined(separator: " ")
        guard flat.count > cellWidth else { return flat }
        let note = flat.hasSuffix(contractBroken) ? contractBroken : ""
        return String(flat.dropLast(note.count).prefix(cellWidth - note.count - 1)) + "…" + note
    }
}

extension Substring {
    fileprivate func trimmingPrefix(while predicate: (Character) -> Bool) -> Substring {
        self[(firstIndex { !predicate($0) } ?? endIndex)...]
    }
}
