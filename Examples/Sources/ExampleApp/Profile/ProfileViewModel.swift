import Cadence
import Foundation

/// The profile screen: a name, a spinner and an error banner, following a ``ProfileRepository``.
///
/// The repository sends from whichever thread its load finished on; the view model moves every state to
/// `mainScheduler` before publishing it. The screen starts loads on the repository (`.task { await
/// repository.load() }`); the view model only listens. A new load clears the banner of the last one.
///
/// It is not `@MainActor`: every change reaches it through `mainScheduler` (the main queue in the app), so a test
/// can drive it from a test scheduler on virtual time.
public final class ProfileViewModel: ObservableObject {
    /// The name shown at the top; empty until a profile has loaded.
    @Published public private(set) var name = ""
    /// Whether the spinner shows.
    @Published public private(set) var isLoading = false
    /// The banner's text when the last load failed; nil otherwise, and nil again as soon as a new load starts.
    @Published public private(set) var errorMessage: String?

    private var subscription: AnyCancellable?

    /// A view model showing `repository`'s state, delivered on `mainScheduler`.
    public init(repository: ProfileRepository, mainScheduler: AnySchedulerOf<DispatchQueue>) {
        subscription = repository.state
            .receive(on: mainScheduler)
            .sink { [weak self] state in self?.show(state) }
    }

    private func show(_ state: LoadingState<Profile>) {
        // Set only when it changes, so that the view redraws once per change.
        if isLoading != state.isLoading { isLoading = state.isLoading }
        switch state {
        case .idle:
            break
        case .loading:
            if errorMessage != nil { errorMessage = nil }
        case let .success(profile):
            name = profile.name
            errorMessage = nil
        case let .failure(error):
            errorMessage = Self.message(for: error)
        }
    }

    /// What the banner says when a load fails.
    static func message(for error: LoadError) -> String {
        switch error {
        case .api(.offline):
            "No internet connection. Pull to refresh to try again."
        default:
            "Could not load your profile."
        }
    }
}
