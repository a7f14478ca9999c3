/// Where the forgot-password screen is: what it shows under the button.
public enum ForgotPasswordState: Equatable, Sendable {
    /// Nothing submitted yet.
    case idle
    /// The request is on its way; the button is disabled.
    case submitting
    /// The server accepted the request: "Check your inbox".
    case sent
    /// The request failed; the message is what the screen shows.
    case failed(String)
}
