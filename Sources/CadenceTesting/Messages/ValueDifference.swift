/// Compares two values part by part — record fields, payloads, tuple elements, collection elements, set members,
/// dictionary entries — and lays out where they differ, one part a line.
///
/// ```text
///   User(
///     id: 1
/// -   name: "Blob"
/// +   name: "Blob Jr."
///   )
/// ```
///
/// `-` marks what was expected, `+` what was received, a space what both share. Parts nest two spaces a level. Two
/// values of the same shape and type are opened up (a record of the same type, the same enum case with a payload, a
/// tuple of the same labels, two collections, two sets, two dictionaries, two strings of several lines — between
/// `"""` lines, one line of text a line, at the indentation of the `"""`); anything else differs whole, as a `-` and
/// a `+` line. Elements of ordered collections are aligned by their longest common subsequence, so one inserted
/// element shows as one `+` line; a removed and an inserted element at the same place are compared as a pair. A run
/// of more than ``longestShownRun`` unchanged parts collapses into one `… (n unchanged)` line.
enum ValueDifference {
    /// One line of a difference.
    struct Line: Equatable {
        /// `"-"` expected, `"+"` received, `" "` both.
        var mark: Character
        /// How deeply the line is nested.
        var depth: Int
        var text: String

        /// `"-   name: \"Blob\""`; an empty line of a text as its mark alone, without trailing spaces.
        var rendered: String {
            if text.isEmpty { return mark == " " ? "" : String(mark) }
            return String(mark) + " " + String(repeating: "  ", count: depth) + text
        }
    }

    /// The longest run of unchanged parts printed in full; longer runs collapse into `… (n unchanged)`.
    static let longestShownRun = 3

    /// The most pairs of elements two collections are aligned over element by element; larger differing middles
    /// (after their common start and end) print as removed, then inserted.
    static let largestAlignment = 250_000

    /// The lines of the difference between `expected` and `received`, printed as values on their own.
    static func lines(expected: ValueNode, received: ValueNode) -> [Line] {
        compare(expected, received, label: "", depth: 0, standalone: true)
    }

    /// The parts of a compared pair, each unchanged (one line) or changed (its lines).
    private enum Part {
        case unchanged(Line)
        case changed([Line])
    }

    private static func compare(
        _ expected: ValueNode,
        _ received: ValueNode,
        label: String,
        depth: Int,
        standalone: Bool
    ) -> [Line] {
        let expectedText = standalone ? expected.standaloneText : expected.text
        let receivedText = standalone ? received.standaloneText : received.text
        if expectedText == receivedText { return [Line(mark: " ", depth: depth, text: label + expectedText)] }
        let whole = [
            Line(mark: "-", depth: depth, text: label + expectedText),
            Line(mark: "+", depth: depth, text: label + receivedText),
        ]
        // A text's lines stand at the indentation of its quotes; every other part one level deeper.
        let opened: (open: String, parts: [Part], close: String, depth: Int)?
        switch (expected.shape, received.shape) {
        case let (.record(type, expectedFields), .record(receivedType, receivedFields)) where type == receivedType:
            opened = fields(expectedFields, receivedFields, depth: depth + 1).map { (type + "(", $0, ")", depth + 1) }
        case let (.enumCase(type, name, expectedPayload?), .enumCase(receivedType, receivedName, receivedPayload?))
        where type == receivedType && name == receivedName:
            let open = (standalone ? type : "") + "." + name + "("
            opened = fields(expectedPayload, receivedPayload, depth: depth + 1).map { (open, $0, ")", depth + 1) }
        case let (.tuple(expectedFields), .tuple(receivedFields)):
            opened = fields(expectedFields, receivedFields, depth: depth + 1).map { ("(", $0, ")", depth + 1) }
        case let (.list(expectedElements), .list(receivedElements)):
            opened = ("[", elements(expectedElements, receivedElements, depth: depth + 1), "]", depth + 1)
        case let (.set(expectedElements), .set(receivedElements)):
            opened = ("Set([", members(expectedElements, receivedElements, depth: depth + 1), "])", depth + 1)
        case let (.dictionary(expectedEntries), .dictionary(receivedEntries)):
            opened = ("[", entries(expectedEntries, receivedEntries, depth: depth + 1), "]", depth + 1)
        case let (.text(expectedLines), .text(receivedLines)):
            let parts = elements(expectedLines.map(ValueNode.scalar), receivedLines.map(ValueNode.scalar), depth: depth)
            opened = (#"""""#, parts, #"""""#, depth)
        default:
            opened = nil
        }
        guard let opened else { return whole }
        return [Line(mark: " ", depth: depth, text: label + opened.open)]
            + collapsed(opened.parts, depth: opened.depth)
            + [Line(mark: " ", depth: depth, text: opened.close)]
    }

    /// The fields of two records, payloads or tuples paired by position, or nil when their labels differ.
    private static func fields(_ expected: [ValueNode.Field], _ received: [ValueNode.Field], depth: Int) -> [Part]? {
        guard expected.map(\.label) == received.map(\.label) else { return nil }
        return zip(expected, received).map { expected, received in
            part(expected.value, received.value, label: expected.label.map { "\($0): " } ?? "", depth: depth)
        }
    }

    /// The elements of two ordered collections, aligned.
    private static func elements(_ expected: [ValueNode], _ received: [ValueNode], depth: Int) -> [Part] {
        var parts: [Part] = []
        var removed: [ValueNode] = []
        var inserted: [ValueNode] = []
        func flush() {
            for (expected, received) in zip(removed, inserted) {
                parts.append(part(expected, received, label: "", depth: depth))
            }
            for element in removed.dropFirst(inserted.count) {
                parts.append(.changed([Line(mark: "-", depth: depth, text: element.text)]))
            }
            for element in inserted.dropFirst(removed.count) {
                parts.append(.changed([Line(mark: "+", depth: depth, text: element.text)]))
            }
            removed = []
            inserted = []
        }
        for step in align(expected.map(\.text), received.map(\.text)) {
            switch step {
            case let .same(index):
                flush()
                parts.append(.unchanged(Line(mark: " ", depth: depth, text: expected[index].text)))
            case let .removed(index):
                removed.append(expected[index])
            case let .inserted(index):
                inserted.append(received[index])
            }
        }
        flush()
        return parts
    }

    /// The members of two sets, each sorted, merged.
    private static func members(_ expected: [ValueNode], _ received: [ValueNode], depth: Int) -> [Part] {
        merge(expected, received, key: \.text) { expected, received in
            switch (expected, received) {
            case let (expected?, _?): .unchanged(Line(mark: " ", depth: depth, text: expected.text))
            case let (expected?, nil): .changed([Line(mark: "-", depth: depth, text: expected.text)])
            case let (nil, received?): .changed([Line(mark: "+", depth: depth, text: received.text)])
            case (nil, nil): nil
            }
        }
    }

    /// The entries of two dictionaries, each sorted by key, merged by key.
    private static func entries(_ expected: [ValueNode.Entry], _ received: [ValueNode.Entry], depth: Int) -> [Part] {
        merge(expected, received, key: \.key.text) { expected, received in
            switch (expected, received) {
            case let (expected?, received?):
                part(expected.value, received.value, label: expected.key.text + ": ", depth: depth)
            case let (expected?, nil):
                .changed([Line(mark: "-", depth: depth, text: expected.key.text + ": " + expected.value.text)])
            case let (nil, received?):
                .changed([Line(mark: "+", depth: depth, text: received.key.text + ": " + received.value.text)])
            case (nil, nil): nil
            }
        }
    }

    /// Walks two lists sorted by `key` (in ``ValueNodeBuilder/precedes(_:_:)`` order) together, pairing equal keys.
    private static func merge<Element>(
        _ expected: [Element],
        _ received: [Element],
        key: (Element) -> String,
        _ part: (Element?, Element?) -> Part?
    ) -> [Part] {
        var parts: [Part] = []
        var e = expected.startIndex
        var r = received.startIndex
        while e < expected.endIndex || r < received.endIndex {
            let pair: (Element?, Element?)
            if e < expected.endIndex, r < received.endIndex, key(expected[e]) == key(received[r]) {
                pair = (expected[e], received[r])
                e += 1
                r += 1
            } else if r == received.endIndex
                || (e < expected.endIndex && ValueNodeBuilder.precedes(key(expected[e]), key(received[r])))
            {
                pair = (expected[e], nil)
                e += 1
            } else {
                pair = (nil, received[r])
                r += 1
            }
            if let part = part(pair.0, pair.1) { parts.append(part) }
        }
        return parts
    }

    /// A compared pair as one part.
    private static func part(_ expected: ValueNode, _ received: ValueNode, label: String, depth: Int) -> Part {
        let lines = compare(expected, received, label: label, depth: depth, standalone: false)
        if lines.count == 1 { return .unchanged(lines[0]) }
        return .changed(lines)
    }

    /// The parts' lines, long runs of unchanged parts collapsed.
    private static func collapsed(_ parts: [Part], depth: Int) -> [Line] {
        var lines: [Line] = []
        var run: [Line] = []
        func flush() {
            if run.count > longestShownRun {
                lines.append(Line(mark: " ", depth: depth, text: "… (\(run.count) unchanged)"))
            } else {
                lines += run
            }
            run = []
        }
        for part in parts {
            switch part {
            case let .unchanged(line):
                run.append(line)
            case let .changed(changed):
                flush()
                lines += changed
            }
        }
        flush()
        return lines
    }

    /// One step of an alignment of two sequences.
    enum AlignmentStep: Equatable {
        /// The element at this index of the first sequence is also in the second.
        case same(Int)
        /// The element at this index of the first sequence is not in the second.
        case removed(Int)
        /// The element at this index of the second sequence is not in the first.
        case inserted(Int)
    }

    /// Aligns `expected` and `received` along a longest common subsequence: their common start and end, and between
    /// them — when no larger than ``largestAlignment`` pairs — the longest common subsequence of the rest.
    static func align(_ expected: [String], _ received: [String]) -> [AlignmentStep] {
        var prefix = 0
        while prefix < expected.count, prefix < received.count, expected[prefix] == received[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < expected.count - prefix, suffix < received.count - prefix,
            expected[expected.count - 1 - suffix] == received[received.count - 1 - suffix]
        {
            suffix += 1
        }
        let expectedMiddle = prefix..<expected.count - suffix
        let receivedMiddle = prefix..<received.count - suffix
        var steps = (0..<prefix).map(AlignmentStep.same)
        if expectedMiddle.count * receivedMiddle.count <= largestAlignment {
            steps += commonSubsequence(expected, expectedMiddle, received, receivedMiddle)
        } else {
            steps += expectedMiddle.map(AlignmentStep.removed) + receivedMiddle.map(AlignmentStep.inserted)
        }
        steps += (expected.count - suffix..<expected.count).map(AlignmentStep.same)
        return steps
    }

    /// The alignment of two ranges along their longest common subsequence (dynamic programming, from the end).
    private static func commonSubsequence(
        _ expected: [String], _ expectedRange: Range<Int>,
        _ received: [String], _ receivedRange: Range<Int>
    ) -> [AlignmentStep] {
        let rows = expectedRange.count
        let columns = receivedRange.count
        // lengths[i * (columns + 1) + j]: the longest common subsequence of the ranges' tails from i and j.
        var lengths = [Int](repeating: 0, count: (rows + 1) * (columns + 1))
        for i in stride(from: rows - 1, through: 0, by: -1) {
            for j in stride(from: columns - 1, through: 0, by: -1) {
                lengths[i * (columns + 1) + j] =
                    expected[expectedRange.lowerBound + i]
                        == received[receivedRange.lowerBound + j]
                    ? lengths[(i + 1) * (columns + 1) + j + 1] + 1
                    : max(lengths[(i + 1) * (columns + 1) + j], lengths[i * (columns + 1) + j + 1])
            }
        }
        var steps: [AlignmentStep] = []
        var i = 0
        var j = 0
        while i < rows || j < columns {
            if i < rows, j < columns, expected[expectedRange.lowerBound + i] == received[receivedRange.lowerBound + j] {
                steps.append(.same(expectedRange.lowerBound + i))
                i += 1
                j += 1
            } else if j == columns
                || (i < rows && lengths[(i + 1) * (columns + 1) + j] >= lengths[i * (columns + 1) + j + 1])
            {
                steps.append(.removed(expectedRange.lowerBound + i))
                i += 1
            } else {
                steps.append(.inserted(receivedRange.lowerBound + j))
                j += 1
            }
        }
        return steps
    }
}
