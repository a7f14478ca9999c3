/// Where the feed comes from: the network in the app, a script in the tests.
public protocol FeedService: Sendable {
    /// The latest posts, or the error the request ended with.
    func fetchFeed() async throws -> [FeedItem]
}
