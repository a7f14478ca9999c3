/// A text that goes with a failure, for a test framework to keep beside it: the whole timeline a message cut short,
/// or `record()`'s steps ready to paste.
///
/// Built only when a failure is, so a passing expectation costs nothing. Swift Testing records each as an
/// `Attachment` of the failing test, named after the test and ``name`` (`swift test --attachments-path DIR` writes
/// them to DIR); the other reporters leave them out.
public struct FailureAttachment: Sendable, Hashable {
    /// What the text is, as the end of a file name: `"expect line 12 timeline.txt"`.
    public let name: String
    /// The text itself.
    public let text: String

    /// An attachment named `name` holding `text`.
    public init(name: String, text: String) {
        self.name = name
        self.text = text
    }
}
