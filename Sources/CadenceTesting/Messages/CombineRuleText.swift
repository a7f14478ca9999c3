/// The text of a broken Combine rule reported into a test.
enum CombineRuleText {
    /// `message`, and what happened instead of the trap.
    ///
    /// ```text
    /// Just: request(_:) was called with max(0); a subscriber must request a positive demand. Apple's Combine stops
    /// the process here; inside this test Cadence reported it and ignored the call.
    /// ```
    static func reported(_ message: String) -> String {
        "\(message). Apple's Combine stops the process here; inside this test Cadence reported it and ignored the call."
    }
}
