import Cadence

/// Fetches a profile: the `async` side of the app, as the repository is given it.
public struct ProfileService: Sendable {
    /// Fetches the profile of the user with this identifier.
    public var fetch: @Sendable (_ id: Int) async throws -> Profile

    /// A service that calls `fetch`.
    public init(fetch: @escaping @Sendable (_ id: Int) async throws -> Profile) {
        self.fetch = fetch
    }

    /// The real endpoint, `GET /users/{id}`, through `api`; ``APIError/noResponse`` if the request finishes without
    /// a profile.
    public static func live(api: APIClient) -> ProfileService {
        ProfileService { id in
            for try await profile in api.get("/users/\(id)", as: Profile.self).values {
                return profile
            }
            throw APIError.noResponse
        }
    }

    /// A service for previews and demos: answers with `result` after `latency` on `clock`.
    ///
    /// Pass a `VirtualClock` and the latency costs no real time; pass `ContinuousClock()` and a preview shows its
    /// spinner for `latency`.
    public static func preview(
        answering result: Result<Profile, APIError>,
        after latency: Duration,
        on clock: any Clock<Duration>
    ) -> ProfileService {
        ProfileService { _ in
            try await clock.sleep(for: latency)
            return try result.get()
        }
    }
}
