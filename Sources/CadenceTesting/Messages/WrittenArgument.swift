import CadenceSupport
import Foundation

/// An argument of a step's call as the test's source wrote it, read back from the source file when a message shows the
/// call: `within: .milliseconds(200)` and `within: .ticks(200)` are the same `Duration`, so only the source can tell
/// which one the test wrote.
///
/// A step's location is the opening parenthesis of its argument list (where `#column` points for a method call), so
/// the argument list is read from there to its closing parenthesis, across lines, skipping string literals and
/// comments. Anything unexpected — a file that cannot be read, a location that is not a `(`, a multi-line string, an
/// unbalanced list, more than ``limit`` characters — gives `nil`, and the message shows the value as Cadence prints
/// it. Read only for a failure's message, never while a step runs; each file is read once per process.
enum WrittenArgument {
    /// The most characters of source read for one call.
    static let limit = 4_000

    /// The text of the argument labelled `label` in the call whose argument list opens at `location`, trimmed:
    /// `".milliseconds(200)"` for `toEmit(1, within: .milliseconds(200))`.
    static func text(labelled label: String, at location: SourceCodeLocation) -> String? {
        guard !location.isUnknown, let lines = SourceFiles.lines(of: location.filePath) else { return nil }
        guard let arguments = argumentList(in: lines, line: location.line, column: location.column) else { return nil }
        for argument in arguments {
            let trimmed = argument.trimmingCharacters(in: .whitespacesAndNewlines)
            guard trimmed.hasPrefix(label + ":") else { continue }
            let value = trimmed.dropFirst(label.count + 1).trimmingCharacters(in: .whitespacesAndNewlines)
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// The top-level arguments of the list that opens at `line`:`column` (1-based, the column in UTF-8 bytes, as
    /// `#column` counts), or nil when the source there is not a complete argument list.
    static func argumentList(in lines: [Substring], line: Int, column: Int) -> [String]? {
        guard line >= 1, line <= lines.count, column >= 1 else { return nil }
        let first = Array(lines[line - 1].utf8)
        guard column <= first.count, first[column - 1] == UInt8(ascii: "(") else { return nil }
        var source = Array(first[(column - 1)...])
        var next = line
        while source.count < limit, next < lines.count {
            source.append(UInt8(ascii: "\n"))
            source.append(contentsOf: lines[next].utf8)
            next += 1
        }
        return arguments(in: source.prefix(limit))
    }

    /// Splits `source`, which starts with `(`, into the top-level arguments up to the matching `)`.
    private static func arguments(in source: ArraySlice<UInt8>) -> [String]? {
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        let slash = UInt8(ascii: "/")
        let newline = UInt8(ascii: "\n")
        var arguments: [String] = []
        var current: [UInt8] = []
        var depth = 0
        var index = source.startIndex
        while index < source.endIndex {
            let byte = source[index]
            let following = index + 1 < source.endIndex ? source[index + 1] : 0
            switch byte {
            case quote:
                // A string literal, copied whole; a multi-line one (`"""`) is not followed.
                if following == quote, index + 2 < source.endIndex, source[index + 2] == quote { return nil }
                var end = index + 1
                while end < source.endIndex, source[end] != quote, source[end] != newline {
                    end += source[end] == backslash ? 2 : 1
                }
                guard end < source.endIndex, source[end] == quote else { return nil }
                current.append(contentsOf: source[index...end])
                index = end + 1
                continue
            case slash where following == slash:
                while index < source.endIndex, source[index] != newline { index += 1 }
                continue
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > 1 { current.append(byte) }
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 {
                    arguments.append(String(decoding: current, as: UTF8.self))
                    return arguments
                }
                current.append(byte)
            case UInt8(ascii: ",") where depth == 1:
                arguments.append(String(decoding: current, as: UTF8.self))
                current = []
            case newline:
                current.append(UInt8(ascii: " "))
            default:
                current.append(byte)
            }
            index += 1
        }
        return nil
    }
}

/// Source files read for messages, each once per process.
enum SourceFiles {
    private static let cache = Locked<[String: [Substring]?]>([:])

    /// The lines of the file at `path`, or nil when it cannot be read.
    static func lines(of path: String) -> [Substring]? {
        if let cached = cache.withLock({ $0[path] }) { return cached }
        let lines = (try? String(contentsOfFile: path, encoding: .utf8))
            .map { $0.split(separator: "\n", omittingEmptySubsequences: false) }
        cache.withLock { $0[path] = lines }
        return lines
    }
}
