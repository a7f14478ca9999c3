/// The sentences of the value steps (`toEmit`, `toEmit(count:)`, `toEmit(where:)`, `toFinish`).
extension StepText {
    /// How a step names the value it is at: `"the value"`, `"a value"`, or `"value 2 of 3"`.
    struct Ordinal {
        let count: Int
        /// Whether the step was written with one value (`toEmit(1)`): `"the value"`.
        let single: Bool
        /// Whether the step takes any value (`toEmit(count: 1)`): `"a value"`.
        var anyValue = false

        func callAsFunction(_ index: Int) -> String {
            if single { return anyValue ? "a value" : "the value" }
            return "value \(index + 1) of \(count)"
        }
    }

    /// What a step expected once it had all it wanted.
    static var nothing: String { "(nothing)" }

    /// `"[1, 2]"`, or `"1"` for a step written with one value.
    static func valueList<Value>(_ values: [Value], single: Bool) -> String {
        if single { return ValueText.describe(values[0]) }
        guard values.count > listedValues else {
            return "[" + values.map(ValueText.describe).joined(separator: ", ") + "]"
        }
        let first = values.prefix(listedHead).map(ValueText.describe)
        let last = values.suffix(listedTail).map(ValueText.describe)
        let between = "… (\((values.count - listedHead - listedTail).formatted) more)"
        return "[" + (first + [between] + last).joined(separator: ", ") + "]"
    }

    /// The most values a call's list shows in full; a longer one shows its first ``listedHead`` and last
    /// ``listedTail`` and counts the rest, so a step expecting a hundred thousand values stays one line.
    static let listedValues = 20
    static let listedHead = 10
    static let listedTail = 3
}

extension StepText {
    /// What `toFinish` waited for, for the driver to complete: `"the finish never arrived: …"`.
    static var theFinish: String { "the finish" }
}

extension EventText {
    /// A completion that finished, as the timeline shows it.
    static var finished: String { "finished" }

    /// A second subscription, as a step names it.
    static var secondSubscription: String { "a second subscription" }
}

extension StepText {
    /// `"count: 3"`.
    static func countArgument(_ count: Int) -> String { "count: \(count)" }

    /// What `toEmit(count:)` expects of each value.
    static var anyValue: String { "(any value)" }

    /// `"expected a value, received finished"`.
    static func expected(_ expected: String, received: String) -> String {
        "expected \(expected), received \(received)"
    }
}

extension StepText {
    /// A predicate as a call shows it: `"where: { … }"`.
    static var predicateArgument: String { "where: { … }" }

    /// What a predicate step expects, in a reason: `"a value matching the predicate"`.
    static let matchingValue = "a value matching the predicate"

    /// What a predicate step expects, in the timeline's expected column: `"(a match)"`.
    static let match = "(a match)"
}

extension StepText {
    /// A window of virtual time as a call shows it: `"for: .ticks(5)"`.
    static func windowArgument(_ window: Duration) -> String { "for: \(VirtualTicks.literal(window))" }
}
