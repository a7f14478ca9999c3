/// How failure messages print values: on one line for the headline and the timeline, and as a field-by-field
/// difference when an expected and a received value differ inside.
///
/// One line, deterministically (Guides/FailureMessages.md shows each in a message):
///
/// | value                                   | prints as                                     |
/// |-----------------------------------------|-----------------------------------------------|
/// | `1`, `1.5`, `true`                      | `1`, `1.5`, `true`                            |
/// | `"a"`, a `Character`, a `Substring`     | `"a"` (a quoted Swift literal, escapes shown) |
/// | `Optional(1)`, `nil`                    | `1`, `nil`                                    |
/// | `[1, 2]`, `[:]`, `["b": 2, "a": 1]`     | `[1, 2]`, `[:]`, `["a": 1, "b": 2]` (keys sorted) |
/// | `Set([2, 1])`                           | `Set([1, 2])` (sorted)                        |
/// | `(1, x: "a")`                           | `(1, x: "a")`                                 |
/// | `User(id: 1, name: "Blob")`, a class    | `User(id: 1, name: "Blob")`                   |
/// | `APIError.offline`, `Event.moved(x: 1)` | `APIError.offline`, `Event.moved(x: 1)`; inside another value `.offline` |
/// | `NSError(domain: "D", code: 3)`         | `NSError(domain: "D", code: 3)`               |
/// | `DispatchTime(uptimeNanoseconds: 5)`    | `DispatchTime(uptimeNanoseconds: 5)`          |
/// | `Int.self`                              | `Int.self`                                    |
///
/// Type names drop their module (`Box<Int>`, not `MyTests.Box<Swift.Int>`), and Foundation's and Dispatch's classes
/// keep their Swift names on Apple platforms (`Timer.TimerPublisher`, not `NSTimer.TimerPublisher`); an enum case printed on its own is
/// qualified with its type, generic arguments left out (`Result.success(1)`). Numbers and the other types of the
/// standard library, Foundation, Dispatch, Combine and Cadence print their own description (`1.5 seconds`). Your own
/// types print their stored properties, or their case and payload, even when they conform to
/// `CustomStringConvertible`: a description often hides the very field a test compares, and may hold an address that
/// changes from run to run. Give a type a `customMirror` to choose what it shows. What has no structure to show — an
/// enum case without a payload, a type with no stored properties — prints its description when it has one (Swift
/// offers no other way to such a case's name). Dictionary keys and set members sort by their text, numbers by value.
///
/// An array, set or dictionary of more than 20 elements prints its first 10 and last 3 and counts the rest
/// (`[1, 2, …, 10, … (19,987 more), 19998, 19999, 20000]`); a difference compares every element (up to a million
/// parts), so it shows where two long values differ. A reference back to an object already being printed (a cycle)
/// prints as `Node(↺)`; parts nested more than 12 levels deep, or beyond a value's first 10,000 parts, print as `…`.
enum ValueText {
    /// The value on one line; strings and characters quoted as Swift literals.
    static func describe(_ value: Any) -> String {
        switch value {
        case let string as String: quoted(string)
        default: ValueNodeBuilder.node(value).standaloneText
        }
    }

    /// `string` as a Swift string literal: `debugDescription`'s escapes, but an apostrophe as itself (`"You're"`,
    /// not `"You\'re"`), as a Swift literal writes it.
    static func quoted(_ string: String) -> String {
        string.debugDescription.replacingOccurrences(of: "\\'", with: "'")
    }

    /// How long the one-line form of a value printed whole may be before the difference shows it, as a table cell
    /// shows it cut.
    static var shortLength: Int { FailureMessage.cellWidth }

    /// A field-by-field difference of two values whose one-line forms do not show clearly where they differ, or nil
    /// when the one-line forms are enough: when they are equal, or when the values differ whole (two numbers, two
    /// strings, two enum cases, values of different types…) and both print in at most ``shortLength`` characters.
    /// Values of the same shape that differ inside — records, payloads of the same case, tuples, collections, sets,
    /// dictionaries, strings of several lines — always get one.
    ///
    /// ```text
    /// Difference (- expected, + received):
    ///   User(
    ///     id: 1
    /// -   name: "Blob"
    /// +   name: "Blob Jr."
    ///   )
    /// ```
    ///
    /// See ``ValueDifference`` for how values are compared.
    static func difference(expected: Any, received: Any) -> String? {
        let expected = ValueNodeBuilder.comparisonNode(expected)
        let received = ValueNodeBuilder.comparisonNode(received)
        let expectedText = expected.standaloneText
        let receivedText = received.standaloneText
        if expectedText == receivedText { return nil }
        let lines = ValueDifference.lines(expected: expected, received: received)
        let differWhole = lines.count == 2
        if differWhole, expectedText.count <= shortLength, receivedText.count <= shortLength { return nil }
        var shown = lines.map(\.rendered)
        if shown.count > longestDifference {
            let leftOut = shown.count - differenceHead - differenceTail
            shown =
                shown.prefix(differenceHead) + ["  … (\(leftOut.formatted) lines left out)"]
                + shown.suffix(differenceTail)
        }
        return (["Difference (- expected, + received):"] + shown).joined(separator: "\n")
    }

    /// The most lines a difference shows in full; a longer one shows its first ``differenceHead`` lines and its last
    /// ``differenceTail``, and counts the rest, so that a message stays a screenful.
    static let longestDifference = 40
    static let differenceHead = 30
    static let differenceTail = 5
}
