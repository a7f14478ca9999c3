/// The sentences of the skipping steps (`toEventuallyEmit`).
extension StepText {
    /// What a skipping step shows in the expected column for a value it skipped.
    static var skipped: String { "(skipped)" }

    /// `"the value (3)"`.
    static func theValue<Value>(_ value: Value) -> String { "the value (\(ValueText.describe(value)))" }

    /// `"expected the value (3), received finished"`, after `"skipped 2 values, then "` when it skipped any.
    static func instead(of sought: String, skipped: Int, received: String) -> String {
        let expectation = expected(sought, received: received)
        guard skipped > 0 else { return expectation }
        return "skipped \(skipped == 1 ? "1 value" : "\(skipped) values"), then \(expectation)"
    }

    /// What a skipping step still sought, for the driver to complete: `"the value (3), after 2 skipped values,"`.
    static func sought(_ sought: String, skipped: Int) -> String {
        guard skipped > 0 else { return sought }
        return sought + ", after \(skipped == 1 ? "1 skipped value" : "\(skipped) skipped values"),"
    }
}
