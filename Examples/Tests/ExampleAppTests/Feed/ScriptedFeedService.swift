import ExampleApp

/// A feed service that answers from a script: each request takes the next answer.
actor ScriptedFeedService: FeedService {
    struct Offline: Error {}

    private var answers: [Result<[FeedItem], Offline>]

    init(_ answers: [Result<[FeedItem], Offline>]) {
        self.answers = answers
    }

    func fetchFeed() async throws -> [FeedItem] {
        guard !answers.isEmpty else { throw Offline() }
        return try answers.removeFirst().get()
    }
}
