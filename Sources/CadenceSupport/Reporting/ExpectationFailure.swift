/// One failed expectation: the message a test framework shows, and where in the test it belongs.
public struct ExpectationFailure: Sendable, Hashable, CustomStringConvertible {
    /// The whole message, as reported.
    public let message: String
    /// The call the failure is reported at: the failing step, or `expect` itself for events no step consumed.
    public let location: SourceCodeLocation

    /// A failure with `message` at `location`.
    public init(message: String, location: SourceCodeLocation) {
        self.message = message
        self.location = location
    }

    /// `"<location>: <message>"`.
    public var description: String { "\(location): \(message)" }
}
