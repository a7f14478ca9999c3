/// One failed expectation: the message a test framework shows, and where in the test it belongs.
public struct ExpectationFailure: Sendable, Hashable, CustomStringConvertible {
    /// The whole message, as reported.
    public let message: String
    /// The call the failure is reported at: the failing step, or `expect` itself for events no step consumed.
    public let location: SourceCodeLocation
    /// Texts to keep beside the failure, where the test framework can (see ``FailureAttachment``).
    public let attachments: [FailureAttachment]

    /// A failure with `message` at `location`, and `attachments` to keep beside it.
    public init(message: String, location: SourceCodeLocation, attachments: [FailureAttachment] = []) {
        self.message = message
        self.location = location
        self.attachments = attachments
    }

    /// `"<location>: <message>"`.
    public var description: String { "\(location): \(message)" }
}
