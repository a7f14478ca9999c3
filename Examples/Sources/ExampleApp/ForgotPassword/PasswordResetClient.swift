import Cadence

/// The one API call the forgot-password screen makes, as a value the view model is given.
///
/// Tests build one from a closure; the app uses ``live(api:)``.
public struct PasswordResetClient: Sendable {
    /// Asks the server to email a reset link to the address; publishes once, then finishes, or fails.
    public var requestReset: @Sendable (_ email: String) -> AnyPublisher<Void, APIError>

    /// A client that calls `requestReset`.
    public init(requestReset: @escaping @Sendable (_ email: String) -> AnyPublisher<Void, APIError>) {
        self.requestReset = requestReset
    }

    /// The real endpoint: `POST /password-resets` with `{"email": "…"}`.
    public static func live(api: APIClient) -> PasswordResetClient {
        PasswordResetClient { email in
            api.post("/password-resets", json: ["email": email])
        }
    }
}
