#if !canImport(Combine) || os(macOS) // exit tests: Swift Testing has them on macOS, not on iOS, tvOS, watchOS or visionOS
import Testing

extension ExitTest.Result {
    /// What the child process wrote to standard error, as text.
    var standardErrorText: String {
        String(decoding: standardErrorContent, as: UTF8.self)
    }
}
#endif
