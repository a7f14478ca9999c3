#if !canImport(Combine) || os(macOS) // exit tests: Swift Testing has them on macOS, not on iOS, tvOS, watchOS or visionOS
import Testing

/// Checks that an exit test's child process wrote the message `request(.none)` traps with for the subscription
/// named `name` (`"Map"`, `"PassthroughSubject"`); the failure points at the caller.
func expectZeroDemandTrap(
    _ result: ExitTest.Result?,
    in name: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let message = "\(name): request(_:) was called with max(0); a subscriber must request a positive demand"
    #expect(result?.standardErrorText.contains(message) == true, sourceLocation: sourceLocation)
}
#endif
