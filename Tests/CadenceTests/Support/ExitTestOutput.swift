import Testing

extension ExitTest.Result {
    /// What the child process wrote to standard error, as text.
    var standardErrorText: String {
        String(decoding: standardErrorContent, as: UTF8.self)
    }
}
