import Cadence
import Foundation

/// The forgot-password screen: an email field, a submit button enabled only for a plausible address, and the
/// outcome of the request.
///
/// The request is made on `backgroundScheduler` and its outcome delivered on `mainScheduler` — `DispatchQueue.main`
/// in the app, a test scheduler in tests:
///
/// ```swift
/// let model = ForgotPasswordViewModel(
///     client: .live(api: api),
///     backgroundScheduler: DispatchQueue.global().eraseToAnyScheduler(),
///     mainScheduler: DispatchQueue.main.eraseToAnyScheduler()
/// )
/// ```
///
/// It is not `@MainActor`: the request's outcome reaches it through `mainScheduler`, so a test can drive it from a
/// test scheduler on virtual time.
public final class ForgotPasswordViewModel: ObservableObject {
    /// The text in the email field.
    @Published public var email = ""
    /// Whether the submit button is enabled: a plausible email, and no request on its way.
    @Published public private(set) var isSubmitEnabled = false
    /// What the screen shows under the button.
    @Published public private(set) var state = ForgotPasswordState.idle

    private let client: PasswordResetClient
    private let backgroundScheduler: AnySchedulerOf<DispatchQueue>
    private let mainScheduler: AnySchedulerOf<DispatchQueue>
    private var request: AnyCancellable?

    /// A view model that calls `client` on `backgroundScheduler` and updates its state on `mainScheduler`.
    public init(
        client: PasswordResetClient,
        backgroundScheduler: AnySchedulerOf<DispatchQueue>,
        mainScheduler: AnySchedulerOf<DispatchQueue>
    ) {
        self.client = client
        self.backgroundScheduler = backgroundScheduler
        self.mainScheduler = mainScheduler
        $email
            .combineLatest($state)
            .map { email, state in EmailValidator.isPlausible(email) && state != .submitting }
            .removeDuplicates()
            .assign(to: &$isSubmitEnabled)
    }

    /// Sends the reset request for the email typed, unless the button is disabled.
    public func submit() {
        guard isSubmitEnabled else { return }
        state = .submitting
        request = client.requestReset(email.trimmingSpaces)
            .subscribe(on: backgroundScheduler)
            .receive(on: mainScheduler)
            .sink(
                receiveCompletion: { [weak self] completion in
                    if case let .failure(error) = completion { self?.state = .failed(Self.message(for: error)) }
                },
                receiveValue: { [weak self] in self?.state = .sent }
            )
    }

    /// What the screen says when the request fails.
    static func message(for error: APIError) -> String {
        switch error {
        case .offline:
            "No internet connection. Check your connection and try again."
        case .badStatus(429):
            "Too many attempts. Try again in a few minutes."
        default:
            "Something went wrong. Try again later."
        }
    }
}
