/// The expected and the received diagram of a failed `toMatch`, one above the other, tick under tick, with the first
/// difference marked.
///
/// Each tick takes the width of the wider of its two forms, padded with spaces (which diagrams ignore), so a group
/// such as `(c|)` keeps the ticks after it lined up:
///
/// ```text
///     expected  -a-b -(c|)
///     received  -a-- b(c|)
///                  ^ tick 3
/// ```
///
/// Received values the diagram's `values:` does not name get a character of their own, listed under the diagrams:
/// `where A = Point(x: 1, y: 2)`. Diagrams that would run over ``widestDrawing`` ticks or more (an event long before
/// the step started, say) are not drawn side by side: the expected one is shown as written, and the timeline above
/// the diagrams lists every event.
struct MarbleComparison {
    /// The expected diagram.
    var expected: MarbleDiagram
    /// The received events' symbols, by tick relative to the diagram's tick 0 (a tick may be negative: an event that
    /// arrived before the step started).
    var received: [Int: [Character]]
    /// The last tick the received diagram covers, relative to the diagram's tick 0.
    var receivedThrough: Int
    /// The first tick at which the two differ, relative to the diagram's tick 0.
    var divergence: Int
    /// The clock's tick at the diagram's tick 0.
    var origin: Int64
    /// The characters given to received values that `values:` does not name, with the values' descriptions.
    var legend: [(symbol: Character, value: String)] = []

    /// The most ticks the two diagrams are drawn over; beyond, the received one is not drawn.
    static let widestDrawing = 120

    /// The comparison as lines of text, indented by four spaces.
    var text: String {
        let first = min(0, received.keys.min() ?? 0, divergence)
        let last = max(expected.lastTick, receivedThrough, divergence)
        let (span, overflow) = last.subtractingReportingOverflow(first)
        if overflow || span >= Self.widestDrawing {
            let ticks = overflow ? "more than \(Int.max)" : "\(span + 1)"
            return
                "    expected  \(expected.text)\n    received  (not drawn: the two would run over \(ticks) ticks; the "
                + "timeline above lists every event)"
        }
        var expectedLine = "    expected  "
        var receivedLine = "    received  "
        var caretColumn = 0
        var receivedEnded = false
        var width = 0
        for tick in first...last {
            let expectedText =
                expected.ticks.indices.contains(tick)
                ? MarbleDiagram.text(ofTick: expected.ticks[tick]) : ""
            var receivedText = ""
            if !receivedEnded, tick <= receivedThrough {
                let symbols = received[tick] ?? []
                receivedText = MarbleDiagram.text(ofTick: symbols)
                receivedEnded = symbols.last == "|" || symbols.last == "#"
            }
            let columns = max(1, expectedText.count, receivedText.count)
            if tick == divergence { caretColumn = width }
            width += columns
            expectedLine += expectedText.padding(toLength: columns, withPad: " ", startingAt: 0)
            receivedLine += receivedText.padding(toLength: columns, withPad: " ", startingAt: 0)
        }
        var caret = String(repeating: " ", count: 14 + caretColumn) + "^ tick \(tick(divergence))"
        let firstColumnTick = tick(first)
        if firstColumnTick != 0 { caret += " (the first column is tick \(firstColumnTick))" }
        var lines = [expectedLine, receivedLine].map { String($0.reversed().drop { $0 == " " }.reversed()) }
        lines.append(caret)
        if !legend.isEmpty {
            lines.append("    where     " + legend.map { "\($0.symbol) = \($0.value)" }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    /// The clock's tick for the diagrams' tick `relative` (saturating).
    private func tick(_ relative: Int) -> Int64 {
        let (sum, overflow) = origin.addingReportingOverflow(Int64(relative))
        return overflow ? (relative > 0 ? .max : .min) : sum
    }
}
