import Cadence

/// The current user's profile as a stream of loading states, for every screen that shows it.
///
/// ``state`` starts at `.idle`; each ``load()`` sends `.loading`, then `.success(profile)` or `.failure(error)`.
/// Screens subscribe to it with Combine, or iterate `state.values`:
///
/// ```swift
/// let repository = ProfileRepository(userID: 42, service: .live(api: api))
/// Task { await repository.load() }
/// for await state in repository.state.values { render(state) }
/// ```
public final class ProfileRepository: @unchecked Sendable {
    // Sendable by hand: `state` is a subject, which may be sent to from any thread; everything else is a let.

    /// The loading state of the profile, starting at `.idle`.
    public let state = CurrentValueSubject<LoadingState<Profile>, Never>(.idle)

    private let userID: Int
    private let service: ProfileService

    /// A repository for the profile of `userID`, fetched with `service`.
    public init(userID: Int, service: ProfileService) {
        self.userID = userID
        self.service = service
    }

    /// Fetches the profile, sending `.loading` and then the outcome into ``state``.
    public func load() async {
        state.send(.loading)
        do {
            let profile = try await service.fetch(userID)
            state.send(.success(profile))
        } catch {
            state.send(.failure(LoadError(error)))
        }
    }
}
