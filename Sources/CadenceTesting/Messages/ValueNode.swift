/// A value taken apart for printing: its shape (a record, an enum case, a collection…) with its parts, and its
/// one-line text.
///
/// Built once from a `Mirror` by ``ValueNodeBuilder`` (which bounds depth and size and cuts reference cycles), then
/// printed on one line by ``ValueText/describe(_:)`` or compared part by part by ``ValueDifference``.
struct ValueNode {
    /// What kind of value a node is, with its parts.
    indirect enum Shape {
        /// A value printed whole: a number, a string, `nil`, a type's own description, a cut-off marker.
        case scalar
        /// A struct or class: `User(id: 1, name: "Blob")`.
        case record(type: String, fields: [Field])
        /// An enum case: `.offline` (no payload), `.loaded(1)`, `.moved(x: 1, y: 2)`. `type` qualifies the case when
        /// it is printed on its own (`APIError.offline`).
        case enumCase(type: String, name: String, payload: [Field]?)
        /// A tuple: `(1, "a")`, `(x: 1, y: 2)`.
        case tuple([Field])
        /// An array or another ordered collection: `[1, 2]`.
        case list([ValueNode])
        /// A set, its elements sorted: `Set([1, 2])`.
        case set([ValueNode])
        /// A dictionary, its entries sorted by key: `["a": 1, "b": 2]`.
        case dictionary([Entry])
        /// A string of several lines, printed on one as a quoted literal (`"a\nb"`) and compared line by line.
        case text(lines: [String])
    }

    /// A labelled or unlabelled part of a record, tuple or payload.
    struct Field {
        var label: String?
        var value: ValueNode
    }

    /// A dictionary entry.
    struct Entry {
        var key: ValueNode
        var value: ValueNode
    }

    var shape: Shape
    /// The value on one line as it prints inside another value: an enum case unqualified (`.offline`).
    var text: String

    /// A node printed whole as `text`.
    static func scalar(_ text: String) -> ValueNode {
        ValueNode(shape: .scalar, text: text)
    }

    /// A string: printed whole, or — when it has several lines — a text compared line by line.
    static func string(_ string: String) -> ValueNode {
        guard string.contains(where: \.isNewline) else { return .scalar(ValueText.quoted(string)) }
        let lines = string.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        return ValueNode(shape: .text(lines: lines), text: ValueText.quoted(string))
    }

    /// A node of a composite `shape`, its one-line text built from its parts (scalars are made with `scalar(_:)`).
    init(_ shape: Shape) {
        self.shape = shape
        switch shape {
        case .scalar:
            text = "…"
        case let .record(type, fields):
            text = type + "(" + Self.text(of: fields) + ")"
        case let .enumCase(_, name, payload):
            text = "." + name + (payload.map { "(" + Self.text(of: $0) + ")" } ?? "")
        case let .tuple(fields):
            text = "(" + Self.text(of: fields) + ")"
        case let .list(elements):
            text = "[" + elements.map(\.text).joined(separator: ", ") + "]"
        case let .set(elements):
            text = "Set([" + elements.map(\.text).joined(separator: ", ") + "])"
        case let .dictionary(entries):
            // An entry with no value's text is the count of the entries a printed dictionary leaves out.
            text =
                entries.isEmpty
                ? "[:]"
                : "["
                    + entries.map { $0.value.text.isEmpty ? $0.key.text : $0.key.text + ": " + $0.value.text }
                    .joined(separator: ", ") + "]"
        case let .text(lines):
            text = ValueText.quoted(lines.joined(separator: "\n"))
        }
    }

    private init(shape: Shape, text: String) {
        self.shape = shape
        self.text = text
    }

    /// The value on one line as it prints on its own: an enum case qualified with its type (`APIError.offline`).
    var standaloneText: String {
        if case let .enumCase(type, _, _) = shape { return type + text }
        return text
    }

    /// `1, "a"` or `x: 1, y: 2`.
    private static func text(of fields: [Field]) -> String {
        fields.map { field in (field.label.map { "\($0): " } ?? "") + field.value.text }.joined(separator: ", ")
    }
}
