/// Loads the feed, retrying a failed request after a backoff that sleeps on an injected clock: 1 s after the first
/// failure, 2 s after the second; the third failure is final.
///
/// An actor, as repositories with a cache or a retry state usually are: callers on the main actor `await` it.
public actor FeedRepository {
    /// How long to wait before each retry, in order.
    public static let backoff: [Duration] = [.seconds(1), .seconds(2)]

    private let service: any FeedService
    private let clock: any Clock<Duration>
    /// How many requests the repository has made, retries included.
    public private(set) var attempts = 0

    /// A repository fetching from `service` and sleeping on `clock` between attempts (`ContinuousClock()` in the app,
    /// the test's `VirtualClock` in tests).
    public init(service: any FeedService, clock: any Clock<Duration>) {
        self.service = service
        self.clock = clock
    }

    /// The feed, after at most two retries.
    public func load() async throws -> [FeedItem] {
        var retries = Self.backoff[...]
        while true {
            attempts += 1
            do {
                return try await service.fetchFeed()
            } catch {
                guard let delay = retries.popFirst() else { throw error }
                try await clock.sleep(for: delay)
            }
        }
    }
}
