import Dispatch
import Foundation

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
/// - a `URLError` prints its code as Swift names it, `URLError(.notConnectedToInternet)`, or its number when Cadence
///   does not know the code's name (`URLError(code: -1018)`), not Foundation's `Error Domain=NSURLErrorDomain …`;
/// - other structs and classes print their stored properties (a class's own after its superclasses'), enums their
///   case and payload — even when the type has a description, which often hides the fields a test compares. Only
///   what has no structure to show (an enum case without a payload, a type without stored properties) prints its
///   description when it has one;
/// - anything else prints as `String(describing:)` does.
///
/// A reference back to an object already being printed (a cycle) prints as `TypeName(↺)`; a value nested deeper than
/// ``maxDepth``, or beyond the first ``maxNodes`` parts of a value, prints as `…`.
///
/// Built to be printed (``node(_:)``), a collection of more than ``listedElements`` elements keeps its first
/// ``listedHead`` and last ``listedTail`` and counts the rest (`[0, 1, …, 9, … (19,987 more), 19997, 19998, 19999]`),
/// so a value stays a line. Built to be compared (``comparisonNode(_:)``), it keeps every element, up to
/// ``maxComparedNodes`` parts, so two long collections that differ anywhere show where.
struct ValueNodeBuilder {
    /// How deeply values nest before the rest prints as `…`.
    static let maxDepth = 12
    /// How many parts one value printed may have before the rest prints as `…`.
    static let maxNodes = 10_000
    /// How many parts one value compared may have before the rest prints as `…`.
    static let maxComparedNodes = 1_000_000
    /// The most elements a printed collection shows in full; a longer one shows its first ``listedHead`` and last
    /// ``listedTail`` and counts the rest, as a call's list of values does.
    static let listedElements = 20
    static let listedHead = 10
    static let listedTail = 3

    private var remaining: Int
    /// Whether long collections are shortened (printing) or kept whole (comparing).
    private let shortensCollections: Bool
    /// The objects being printed, from the outermost in: a reference back to one of them is a cycle.
    private var path: Set<ObjectIdentifier> = []

    private init(remaining: Int, shortensCollections: Bool) {
        self.remaining = remaining
        self.shortensCollections = shortensCollections
    }

    /// Takes `value` apart to print it: long collections shortened.
    static func node(_ value: Any) -> ValueNode {
        var builder = ValueNodeBuilder(remaining: maxNodes, shortensCollections: true)
        return builder.node(value, depth: 0)
    }

    /// Takes `value` apart to compare it with another: every element of its collections, up to ``maxComparedNodes``
    /// parts.
    static func comparisonNode(_ value: Any) -> ValueNode {
        var builder = ValueNodeBuilder(remaining: maxComparedNodes, shortensCollections: false)
        return builder.node(value, depth: 0)
    }

    private mutating func node(_ value: Any, depth: Int) -> ValueNode {
        remaining -= 1
        if remaining < 0 { return .scalar("…") }
        if let string = (value as? String) ?? (value as? Substring).map(String.init) { return .string(string) }
        if let literal = Self.literal(value) { return .scalar(literal) }
        if let error = value as? URLError { return .scalar(Self.describe(error)) }
        if let time = value as? DispatchTime {
            return ValueNode(
                .record(
                    type: "DispatchTime",
                    fields: [
                        ValueNode.Field(label: "uptimeNanoseconds", value: .scalar("\(time.uptimeNanoseconds)"))
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
            return ValueNode(.list(listedNodes(of: mirror.children, depth: depth)))
        case .set:
            if depth >= Self.maxDepth { return .scalar("Set([…])") }
            let members = sortable(mirror.children) { builder in
                builder.nodes(of: mirror.children, depth: depth).sorted { Self.precedes($0.text, $1.text) }
            }
            return ValueNode(.set(shortened(members) { .scalar($0) }))
        case .dictionary:
            if depth >= Self.maxDepth { return .scalar("[…]") }
            let sorted = sortable(mirror.children) { builder in
                builder.entries(of: mirror.children, depth: depth).sorted { Self.precedes($0.key.text, $1.key.text) }
            }
            return ValueNode(.dictionary(shortened(sorted) { ValueNode.Entry(key: .scalar($0), value: .scalar("")) }))
        case .tuple:
            if depth >= Self.maxDepth { return .scalar("(…)") }
            return ValueNode(.tuple(fields(of: mirror.children, depth: depth)))
        default:
            break
        }
        let type = type(of: value)
        if value is any Error, mirror.displayStyle == .class, Self.isNSError(mirror) {
            let error = value as! any Error
            return ValueNode(
                .record(
                    type: "NSError",
                    fields: [
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
        if depth >= Self.maxDepth {
            return ValueNode(
                .enumCase(
                    type: type, name: name,
                    payload: [
                        ValueNode.Field(label: nil, value: .scalar("…"))
                    ]))
        }
        let payload = Mirror(reflecting: child.value)
        let fields =
            payload.displayStyle == .tuple
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

    /// The entries of a dictionary, in the order its mirror gives them.
    private mutating func entries(of children: Mirror.Children, depth: Int) -> [ValueNode.Entry] {
        var entries: [ValueNode.Entry] = []
        for child in children {
            let pair = Array(Mirror(reflecting: child.value).children)
            guard remaining > 0, pair.count == 2 else {
                entries.append(ValueNode.Entry(key: .scalar("…"), value: .scalar("…")))
                break
            }
            entries.append(
                ValueNode.Entry(
                    key: node(pair[0].value, depth: depth + 1), value: node(pair[1].value, depth: depth + 1)
                ))
        }
        return entries
    }

    /// The members of a set or dictionary, sorted by `build`. When printing one long enough to be shortened, every
    /// member is taken apart (on a comparison's budget) to find which come first and last, and only the members
    /// printed count against the printed value's parts.
    private mutating func sortable<Member>(
        _ children: Mirror.Children, _ build: (inout ValueNodeBuilder) -> [Member]
    ) -> [Member] {
        guard shortensCollections, children.count > Self.listedElements else { return build(&self) }
        let printed = remaining
        remaining = Self.maxComparedNodes
        let members = build(&self)
        remaining = printed - Self.listedHead - Self.listedTail
        return members
    }

    /// The elements of an ordered collection; when printing a long one, only its first ``listedHead`` and last
    /// ``listedTail`` are taken apart, with one node counting the rest between them.
    private mutating func listedNodes(of children: Mirror.Children, depth: Int) -> [ValueNode] {
        guard shortensCollections else { return nodes(of: children, depth: depth) }
        let count = children.count
        guard count > Self.listedElements else { return nodes(of: children, depth: depth) }
        var nodes: [ValueNode] = []
        for (offset, child) in children.enumerated() where offset < Self.listedHead || offset >= count - Self.listedTail
        {
            guard remaining > 0 else {
                nodes.append(.scalar("…"))
                break
            }
            if offset == count - Self.listedTail { nodes.append(.scalar(Self.more(count))) }
            nodes.append(node(child.value, depth: depth + 1))
        }
        return nodes
    }

    /// `parts` as printed: a long run shortened to its first ``listedHead`` and last ``listedTail`` around a part
    /// made by `counting` from `"… (n more)"`; kept whole when comparing.
    private func shortened<Part>(_ parts: [Part], counting: (String) -> Part) -> [Part] {
        guard shortensCollections, parts.count > Self.listedElements else { return parts }
        return Array(parts.prefix(Self.listedHead)) + [counting(Self.more(parts.count))]
            + Array(parts.suffix(Self.listedTail))
    }

    /// `"… (19,987 more)"`: what a shortened collection of `count` elements leaves out.
    private static func more(_ count: Int) -> String {
        "… (\((count - listedHead - listedTail).formatted) more)"
    }

    /// `URLError(.badURL)`: the code by the name Swift gives it, else by number.
    private static func describe(_ error: URLError) -> String {
        if let name = urlErrorNames[error.code.rawValue] { return "URLError(.\(name))" }
        return "URLError(code: \(error.code.rawValue))"
    }

    /// The names of the `URLError` codes a test meets most, by their number.
    private static let urlErrorNames: [Int: String] = {
        let codes: [(URLError.Code, String)] = [
            (.unknown, "unknown"), (.cancelled, "cancelled"), (.badURL, "badURL"), (.timedOut, "timedOut"),
            (.unsupportedURL, "unsupportedURL"), (.cannotFindHost, "cannotFindHost"),
            (.cannotConnectToHost, "cannotConnectToHost"), (.networkConnectionLost, "networkConnectionLost"),
            (.dnsLookupFailed, "dnsLookupFailed"), (.httpTooManyRedirects, "httpTooManyRedirects"),
            (.resourceUnavailable, "resourceUnavailable"), (.notConnectedToInternet, "notConnectedToInternet"),
            (.redirectToNonExistentLocation, "redirectToNonExistentLocation"),
            (.badServerResponse, "badServerResponse"), (.userCancelledAuthentication, "userCancelledAuthentication"),
            (.userAuthenticationRequired, "userAuthenticationRequired"), (.zeroByteResource, "zeroByteResource"),
            (.cannotDecodeRawData, "cannotDecodeRawData"), (.cannotDecodeContentData, "cannotDecodeContentData"),
            (.cannotParseResponse, "cannotParseResponse"), (.dataNotAllowed, "dataNotAllowed"),
            (.fileDoesNotExist, "fileDoesNotExist"), (.fileIsDirectory, "fileIsDirectory"),
            (.noPermissionsToReadFile, "noPermissionsToReadFile"),
            (.dataLengthExceedsMaximum, "dataLengthExceedsMaximum"),
            (.secureConnectionFailed, "secureConnectionFailed"),
            (.serverCertificateHasBadDate, "serverCertificateHasBadDate"),
            (.serverCertificateUntrusted, "serverCertificateUntrusted"),
            (.serverCertificateHasUnknownRoot, "serverCertificateHasUnknownRoot"),
            (.serverCertificateNotYetValid, "serverCertificateNotYetValid"),
            (.clientCertificateRejected, "clientCertificateRejected"),
            (.clientCertificateRequired, "clientCertificateRequired"),
            (.cannotLoadFromNetwork, "cannotLoadFromNetwork"),
        ]
        return Dictionary(codes.map { ($0.0.rawValue, $0.1) }, uniquingKeysWith: { first, _ in first })
    }()

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
