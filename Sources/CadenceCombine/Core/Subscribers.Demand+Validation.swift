import CadenceSupport

extension Subscribers.Demand {
    /// Whether the demand is positive, for the subscriptions that, as in Apple's Combine, hold a subscriber to the
    /// rule that `request(_:)` asks for at least one value: `Just`, `Future`, the subjects, `flatMap`, `catch`, the
    /// reducing and filtering operators and a few more. A zero demand traps there — or, inside a test that uses
    /// CadenceTesting, is reported as a failure of that test and ignored (see `combineRule`):
    ///
    /// ```swift
    /// guard demand.isPositive(in: "Just") else { return }
    /// ```
    ///
    /// Every other subscription passes `.max(0)` on, as Combine's do.
    ///
    /// - Parameter name: the subscription's name as its `description` gives it (`"Filter"`, `"Just"`, …).
    @inlinable
    func isPositive(in name: @autoclosure () -> String) -> Bool {
        combineRule(
            rawValue > 0,
            "\(name()): request(_:) was called with max(0); a subscriber must request a positive demand")
    }
}
