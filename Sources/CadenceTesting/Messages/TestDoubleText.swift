/// Every sentence the test doubles report: a script a `hot` or `cold` publisher cannot play, a probe with no clock to
/// record on, and subscriptions that differ from the ones expected.
enum TestDoubleText {
    /// `cold("-a-x") cannot be played: "x" at character 4 is not a key of values: (it has "a", "b"). It plays
    /// nothing.`
    static func unplayable(_ call: String, marbles: String, _ reason: String) -> String {
        "\(call)(\(ValueText.describe(marbles))) cannot be played: \(reason). It plays nothing."
    }

    /// `hot(_:) cannot be played: event 2 follows the completion at event 1. It plays nothing.`
    static func unplayableEvents(_ call: String, _ problem: String) -> String {
        "\(call)(_:) cannot be played: \(problem). It plays nothing."
    }

    /// `"x" at character 4 is not a key of values: (it has "a", "b")`
    static func unknownKey(_ key: Character, at position: Int, known: [Character]) -> String {
        let listed = known.map { "\"\($0)\"" }.joined(separator: ", ")
        return "\"\(key)\" at character \(position) is not a key of values: (it has "
            + (listed.isEmpty ? "none" : listed) + ")"
    }

    /// `"#" at character 3 fails the publisher, but it cannot fail (its Failure is Never); pass error: to make one
    /// that can`
    static func cannotFail(at position: Int) -> String {
        "\"#\" at character \(position) fails the publisher, but it cannot fail (its Failure is Never); "
            + "pass error: to make one that can"
    }

    /// `"#" at character 4 fails the publisher, but no error: was given to fail it with (its Failure is APIError);
    /// pass error:`
    static func noError(at position: Int, failure: String) -> String {
        "\"#\" at character \(position) fails the publisher, but no error: was given to fail it with (its Failure is "
            + "\(failure)); pass error:"
    }

    /// `probed()` with no `VirtualClock.current` bound, and what the probe does instead.
    static let probedWithoutClock =
        "probed() found no test clock: it records on VirtualClock.current, which .virtualTime and withVirtualTime "
        + "bind, and none is bound here. Pass the clock with probed(on:). This probe records on a clock of its own "
        + "that nothing advances, so every tick it notes is 0."

    /// `event 1 is at tick -1, before tick 0`
    static func beforeTickZero(tick: Int64) -> String {
        "event 1 is at tick \(tick), before tick 0"
    }

    /// `event 3 is at tick 4, before event 2's tick 6` (events counted from 1)
    static func beforePrevious(event: Int, tick: Int64, previous: Int64) -> String {
        "event \(event) is at tick \(tick), before event \(event - 1)'s tick \(previous)"
    }

    /// `event 2 follows the completion at event 1` (events counted from 1)
    static func afterCompletion(event: Int) -> String {
        "event \(event) follows the completion at event \(event - 1)"
    }

    /// The subscriptions a publisher received, against the diagrams expected:
    ///
    /// ```text
    /// hot.expectSubscriptions(["^-!", "^"]) failed: received ["^-!"], counted from tick 0.
    ///
    /// Subscriptions:
    ///     1. ^-!  subscribed at tick 0, requested unlimited at tick 0, completed at tick 2
    /// ```
    static func subscriptionsDiffer(
        _ name: String, expected: [String], received: [String], origin: Int64, records: [SubscriptionRecord]
    ) -> String {
        let listed =
            records.isEmpty
            ? "    (none)"
            : zip(received, records).enumerated()
                .map { "    \($0.offset + 1). \($0.element.0)  \($0.element.1)" }.joined(separator: "\n")
        return "\(name).expectSubscriptions(\(ValueText.describe(expected))) failed: received "
            + "\(ValueText.describe(received)), counted from tick \(origin).\n\nSubscriptions:\n\(listed)"
    }
}
