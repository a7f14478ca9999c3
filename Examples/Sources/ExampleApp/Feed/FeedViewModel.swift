import Cadence

/// The feed screen: a spinner, the posts, or an error banner, on the main actor.
///
/// `load()` starts a task that asks the ``FeedRepository`` — an actor that may retry and sleep on its clock — and
/// publishes each step through `state`. A new `load()` while one runs does nothing.
@MainActor
public final class FeedViewModel: ObservableObject {
    /// What the screen shows.
    public enum State: Equatable, Sendable {
        case idle
        case loading
        case loaded([FeedItem])
        case failed(String)
    }

    /// What the screen shows now.
    @Published public private(set) var state: State = .idle

    private let repository: FeedRepository
    private var loading: Task<Void, Never>?

    /// A view model loading from `repository`.
    public init(repository: FeedRepository) {
        self.repository = repository
    }

    /// Starts loading the feed, unless a load is already running.
    public func load() {
        guard loading == nil else { return }
        state = .loading
        loading = Task {
            do {
                state = .loaded(try await repository.load())
            } catch {
                state = .failed("Could not load the feed. Pull to refresh to try again.")
            }
            loading = nil
        }
    }
}
