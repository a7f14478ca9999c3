/// Checks one of Combine's rules that Apple's Combine enforces by trapping — a misuse by a hand-written publisher or
/// subscriber, such as a value sent before the subscription or a second completion — and returns whether it holds.
///
/// When the rule is broken, Cadence stops the process with `message`, as Combine does, unless the process links
/// CadenceTesting and a test is running where the rule was broken: CadenceTesting installs a
/// ``CombineRuleViolation/handler``, when the process loads it, that reports the broken rule as a failure of that
/// test. Then this returns `false`, and the caller ignores the offending call, so the test goes on to its end:
///
/// ```swift
/// guard combineRule(state.isSubscribed, "Filter: received a value before its subscription") else { return }
/// ```
///
/// Use it only where Apple's Combine traps; where Combine does not, Cadence must not stop either.
@inlinable @inline(__always)
package func combineRule(
    _ condition: @autoclosure () -> Bool,
    _ message: @autoclosure () -> String,
    file: StaticString = #fileID,
    line: UInt = #line
) -> Bool {
    if condition() { return true }
    CombineRuleViolation.survive(message(), file: file, line: line)
    return false
}

/// What happens when a Combine rule checked by ``combineRule(_:_:file:line:)`` is broken.
@usableFromInline
package enum CombineRuleViolation {
    /// Takes a broken rule's message and returns whether it reported it into a running test; when it returns
    /// `false` (no test is running where the rule was broken), Cadence traps.
    package typealias Handler = @Sendable (_ message: String) -> Bool

    private static let installed = Locked<Handler?>(nil)

    /// The handler CadenceTesting installs when the process loads it: it reports into the test running where the
    /// rule was broken. `nil` in a process without CadenceTesting — production code — so there a broken rule traps.
    package static var handler: Handler? {
        get { installed.withLock { $0 } }
        set { installed.withLock { $0 = newValue } }
    }

    /// Reports `message` through the handler, or traps with it when there is none or it found no running test.
    @usableFromInline @inline(never)
    package static func survive(_ message: String, file: StaticString, line: UInt) {
        if let handler, handler(message) { return }
        requirementFailure(message, file: file, line: line)
    }
}
