import Dispatch

/// Takes a value apart with `Mirror` into a ``ValueNode``, deterministically and boundedly.
///
/// The rules, in order (``ValueText`` documents them for users):
/// - strings, substrings and characters print as quoted Swift literals; a type prints as `Int.self`; an
///   `AnyHashable` prints as the value it wraps;
/// - an optional prints as its wrapped value or `nil`; arrays, sets (sorted), dictionaries (sorted by key) and
///   tuples print their elements by these same rules;
/// - a value of a type from the standard library, Foundation, Dispatch, Combine or Cadence that describes itself
///   (`CustomStringConvertible` or `CustomDebugStringConvertible`) prints its description: `1`, `1.5`, `true`,
///   `1.5 seconds`, a URL;
/// - an `NSError` prints its domain and code;
/// - a `DispatchTime` prints its `uptimeNanoseconds` (its raw value is in the CPU's own ticks on Apple silicon);
/// - other structs and classes print their stored properties (a class's own after its superclasses'), enums their
///   case and payload — even when the type has a description, which often hides the fields a test compares. Only
///   what has no structure to show (an enum case without a payload, a type without stored properties) prints its
///   description when it has one;
/// - anything else prints as `String(describing:)` does.
///
/// A reference back to an object already being printed (a cycle) prints as `TypeName(↺)`; a value nested deeper than
/// ``maxDepth``, or beyond the first ``maxNodes`` parts of a value, prints as `…`.
struct ValueNodeBuilder {
    /// How deeply values nest before the rest prints as `…`.
    static let maxDepth = 12
    /// How many parts one value may have before the rest prints as `…`.
    static let maxNodes = 10_000

    private var remaining = Self.maxNodes
    /// The objects being printed, from the outermost in: a reference back to one of them is a cycle.
    private var path: Set<ObjectIdentifier> = []

    /// Takes `value` apart.
    static func node(_ value: Any) -> ValueNode {
        var builder = ValueNodeBuilder()
        return builder.node(value, depth: 0)
    }

    private mutating func node(_ value: Any, depth: Int) -> ValueNode {
        remaining -= 1
        if remaining < 0 { return .scalar("…") }
        if let string = (value as? String) ?? (value as? Substring).map(String.init) { return .string(string) }
        if let literal = Self.literal(value) { return .scalar(literal) }
        if let time = value as? DispatchTime {
            return ValueNode(.record(type: "DispatchTime", fields: [
                ValueNode.Field(label: "uptimeNanoseconds", value: .scalar("\(time.uptimeNanoseconds)")),
            ]))
        }
        // Any Hashable value casts to AnyHashable; only one that is an AnyHashable is unwrapped.
        if type(of: value) == AnyHashable.self, let hashable = value as? AnyHashable {
            return node(hashable.base, depth: depth)
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first?.value else { return .scalar("nil") }
            return node(wrapped, depth: depth)
        case .collection:
            if depth >= Self.maxDepth { return .scalar("[…]") }
            return ValueNode(.list(nodes(of: mirror.children, depth: depth)))
        case .set:
            if depth >= Self.maxDepth { return .scalar("Set([…])") }
            return ValueNode(.set(nodes(of: mirror.children, depth: depth).sorted { Self.precedes($0.text, $1.text) }))
        case .dictionary:
            if depth >= Self.maxDepth { return .scalar("[…]") }
            var entries: [ValueNode.Entry] = []
            for child in mirror.children {
                let pair = Array(Mirror(reflecting: child.value).children)
                guard remaining > 0, pair.count == 2 else {
                    entries.append(ValueNode.Entry(key: .scalar("…"), value: .scalar("…")))
                    break
                }
                entries.append(ValueNode.Entry(
                    key: node(pair[0].value, depth: depth + 1), value: node(pair[1].value, depth: depth + 1)
                ))
            }
            return ValueNode(.dictionary(entries.sorted { Self.precedes($0.key.text, $1.key.text) }))
        case .tuple:
            if depth >= Self.maxDepth { return .scalar("(…)") }
            return ValueNode(.tuple(fields(of: mirror.children, depth: depth)))
        default:
            break
        }
        let type = type(of: value)
        if value is any Error, mirror.displayStyle == .class, Self.isNSError(mirror) {
            let error = value as! any Error
            return ValueNode(.record(type: "NSError", fields: [
                ValueNode.Field(label: "domain", value: .scalar(error._domain.debugDescription)),
                ValueNode.Field(label: "code", value: .scalar("\(error._code)")),
            ]))
        }
        if TypeName.isSystem(type), let description = Self.ownDescription(value) { return .scalar(description) }
        switch mirror.displayStyle {
        case .struct:
            return record(value, mirror: mirror, depth: depth)
        case .class:
            let object = ObjectIdentifier(value as AnyObject)
            if path.contains(object) { return .scalar(TypeName.describe(type) + "(↺)") }
            path.insert(object)
            defer { path.remove(object) }
            return record(value, mirror: mirror, depth: depth)
        case .enum:
            return enumCase(value, mirror: mirror, depth: depth)
        default:
            return .scalar(Self.ownDescription(value) ?? Self.oneLine(String(describing: value)))
        }
    }

    /// A struct's or class's stored properties, or its description when it has none to show.
    private mutating func record(_ value: Any, mirror: Mirror, depth: Int) -> ValueNode {
        let type = TypeName.describe(type(of: value))
        var children = Array(mirror.children)
        var superclass = mirror.superclassMirror
        while let inherited = superclass, !TypeName.isSystem(inherited.subjectType) {
            children.insert(contentsOf: inherited.children, at: 0)
            superclass = inherited.superclassMirror
        }
        // Properties a macro adds (`_$observationRegistrar`) are machinery, not state.
        children.removeAll { $0.label?.hasPrefix("_$") ?? false }
        if children.isEmpty, let description = Self.ownDescription(value) { return .scalar(description) }
        if depth >= Self.maxDepth, !children.isEmpty { return .scalar(type + "(…)") }
        return ValueNode(.record(type: type, fields: fields(of: children, depth: depth)))
    }

    /// An enum case with its payload, or its description when it has no payload and the enum describes itself
    /// (Swift then gives no other way to its case name).
    private mutating func enumCase(_ value: Any, mirror: Mirror, depth: Int) -> ValueNode {
        let type = TypeName.withoutGenericArguments(type(of: value))
        guard let child = mirror.children.first else {
            if let description = Self.ownDescription(value) { return .scalar(description) }
            return ValueNode(.enumCase(type: type, name: String(describing: value), payload: nil))
        }
        let name = child.label ?? "?"
        if depth >= Self.maxDepth { return ValueNode(.enumCase(type: type, name: name, payload: [
            ValueNode.Field(label: nil, value: .scalar("…")),
        ])) }
        let payload = Mirror(reflecting: child.value)
        let fields = payload.displayStyle == .tuple
            ? fields(of: payload.children, depth: depth)
            : [ValueNode.Field(label: nil, value: node(child.value, depth: depth + 1))]
        return ValueNode(.enumCase(type: type, name: name, payload: fields))
    }

    /// The parts of a record, tuple or payload; a tuple's positional labels (`.0`) dropped.
    private mutating func fields<Children: Collection<Mirror.Child>>(
        of children: Children,
        depth: Int
    ) -> [ValueNode.Field] {
        var fields: [ValueNode.Field] = []
        for child in children {
            guard remaining > 0 else {
                fields.append(ValueNode.Field(label: nil, value: .scalar("…")))
                break
            }
            let label = child.label.flatMap { $0.hasPrefix(".") ? nil : $0 }
            fields.append(ValueNode.Field(label: label, value: node(child.value, depth: depth + 1)))
        }
        return fields
    }

    /// The elements of a collection or set; once the value has used up its parts, one `…` for the rest.
    private mutating func nodes(of children: Mirror.Children, depth: Int) -> [ValueNode] {
        var nodes: [ValueNode] = []
        for child in children {
            guard remaining > 0 else {
                nodes.append(.scalar("…"))
                break
            }
            nodes.append(node(child.value, depth: depth + 1))
        }
        return nodes
    }

    /// Characters as quoted literals, types as `Int.self`; nil for everything else.
    private static func literal(_ value: Any) -> String? {
        switch value {
        case let character as Character: ValueText.quoted(String(character))
        case let scalar as Unicode.Scalar: ValueText.quoted(String(Character(scalar)))
        case let string as StaticString: ValueText.quoted(string.description)
        case let type as Any.Type: TypeName.describe(type) + ".self"
        default: nil
        }
    }

    /// The value's own description — `description` if it has one, else `debugDescription` — on one line, or nil.
    private static func ownDescription(_ value: Any) -> String? {
        let description: String
        if let value = value as? any CustomStringConvertible {
            description = value.description
        } else if let value = value as? any CustomDebugStringConvertible {
            description = value.debugDescription
        } else {
            return nil
        }
        return oneLine(description)
    }

    /// `text` with its line breaks, and the indentation after them, replaced by single spaces.
    static func oneLine(_ text: String) -> String {
        guard text.contains(where: \.isNewline) else { return text }
        return text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { $0.drop(while: \.isWhitespace) }.joined(separator: " ")
    }

    /// Whether the class (or one of its superclasses) is `NSError`.
    private static func isNSError(_ mirror: Mirror) -> Bool {
        var current: Mirror? = mirror
        while let mirror = current {
            if TypeName.describe(mirror.subjectType) == "NSError" { return true }
            current = mirror.superclassMirror
        }
        return false
    }

    /// The order of set elements and dictionary keys: numbers by value, before everything else by text.
    static func precedes(_ first: String, _ second: String) -> Bool {
        switch (Double(first), Double(second)) {
        case let (a?, b?) where a != b && !a.isNaN && !b.isNaN: a < b
        case (.some, nil): true
        case (nil, .some): false
        default: first < second
        }
    }
}
