// swift-format-ignore-file
// (The samples keep the layout their guide shows: a block of the guide appears here line for line.)
// Every sample of Guides/AsyncAwait.md, compiled and run as the guide shows it, and a check that the guide shows no
// other. Change one, change the other.
import CadenceTesting
import Foundation
import Synchronization
import Testing

// MARK: Production code

enum ArticleState: Equatable {
    case idle
    case loading
    case loaded([String])
    case failed(String)
}

final class ArticleRepository {
    let state = CurrentValueSubject<ArticleState, Never>(.idle)
}

/// The articles, once the repository has loaded them; nil if it failed.
@MainActor
func loadedArticles(from repository: ArticleRepository) async -> [String]? {
    for await state in repository.state.values {
        switch state {
        case .idle, .loading: continue
        case .loaded(let articles): return articles
        case .failed: return nil
        }
    }
    return nil
}

struct PhotoUploader {
    let queue: DispatchQueue

    /// Uploads `photo` in four parts on `queue`, yielding the fraction sent after each.
    func upload(_ photo: Data) -> AsyncStream<Double> {
        AsyncStream { continuation in
            queue.async {
                for part in 1...4 {
                    continuation.yield(Double(part) / 4)
                }
                continuation.finish()
            }
        }
    }
}

struct FeedPost: Equatable, Sendable {
    var id: Int
    var title: String
}

enum FeedError: Error, Equatable {
    case rateLimited(retryAfter: Duration)
    case offline
}

struct FeedClient: Sendable {
    let clock: any Clock<Duration>
    let fetch: @Sendable () async throws -> [FeedPost]

    /// The feed; when the server answers "rate limited", waits as long as it asks, then tries once more.
    func load() async throws -> [FeedPost] {
        do {
            return try await fetch()
        } catch FeedError.rateLimited(let retryAfter) {
            try await clock.sleep(for: retryAfter)
            return try await fetch()
        }
    }
}

enum ReceiptError: Error, Equatable {
    case unreadable(String)
}

struct ReceiptScanner {
    let queue: DispatchQueue

    /// The total of the receipt's lines ("Coffee 3.50"), in cents, added up on `queue`.
    func totalInCents(of lines: [String]) -> AnyPublisher<Int, ReceiptError> {
        Just(lines)
            .receive(on: queue)
            .setFailureType(to: ReceiptError.self)
            .flatMap { lines in Self.total(of: lines).publisher }
            .eraseToAnyPublisher()
    }

    private static func total(of lines: [String]) -> Result<Int, ReceiptError> {
        var cents = 0
        for line in lines {
            guard let price = line.split(separator: " ").last.flatMap({ Double($0) }) else {
                return .failure(.unreadable(line))
            }
            cents += Int((price * 100).rounded())
        }
        return .success(cents)
    }
}

@Suite("Guides/AsyncAwait.md")
struct AsyncAwaitGuideTests {
    let photo = Data(repeating: 0xFF, count: 1024)

    @MainActor @Test func theLoopSeesTheLatestStateOfACurrentValueSubject() async {
        let repository = ArticleRepository()
        let articles = Task { await loadedArticles(from: repository) }
        // Whenever the loop asks for its next value, the subject hands over its state at that moment: the loop
        // sees `.loaded` however the sends and the loop interleave.
        repository.state.send(.loading)
        repository.state.send(.loaded(["Cadence 0.1", "Virtual time"]))
        #expect(await articles.value == ["Cadence 0.1", "Virtual time"])
    }

    @MainActor @Test func aFailedLoadEndsTheLoop() async {
        let repository = ArticleRepository()
        repository.state.send(.failed("offline"))
        #expect(await loadedArticles(from: repository) == nil)
    }

    @Test func aPassthroughSubjectDropsWhatIsSentBeforeNext() async {
        let subject = PassthroughSubject<String, Never>()
        var iterator = subject.values.makeAsyncIterator()   // subscribes, requests nothing yet
        subject.send("sent before anyone asked")
        subject.send(completion: .finished)
        #expect(await iterator.next() == nil)
    }

    @Test func aCurrentValueSubjectHandsOverItsLatestValue() async {
        let subject = CurrentValueSubject<String, Never>("first")
        var iterator = subject.values.makeAsyncIterator()
        subject.send("second")
        subject.send("latest")
        #expect(await iterator.next() == "latest")
    }

    @Test func anUploadReportsItsProgress() async {
        await expectFailures([]) {
            let uploader = PhotoUploader(queue: DispatchQueue(label: "upload"))

            await expect(uploader.upload(photo))
                .toEmit([0.25, 0.5, 0.75, 1], timeout: .seconds(60))
                .thenFinish(timeout: .seconds(60))
        }
    }

    @Test func aStreamThatEndsEarlyFailsAtOnce() async {
        let uploader = PhotoUploader(queue: DispatchQueue(label: "upload"))
        await expectWallClockFailures(["""
            toEmit([0.25, 0.5, 0.75, 1.0, 1.0], timeout: .seconds(60)) failed: expected value 5 of 5 (1.0), received finished at +… ms.
            """], headlinesOnly: true) {
            await expect(uploader.upload(photo)).toEmit([0.25, 0.5, 0.75, 1, 1], timeout: .seconds(60))
        }
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func aRateLimitedLoadWaitsAsLongAsTheServerAsks() async throws {
        let posts = [FeedPost(id: 1, title: "Cadence 0.1")]
        let answers = Mutex<[Result<[FeedPost], FeedError>]>([
            .failure(.rateLimited(retryAfter: .seconds(30))),
            .success(posts),
        ])
        let clock = VirtualClock()
        let client = FeedClient(clock: clock) { try answers.withLock { $0.removeFirst() }.get() }

        let load = Task.immediate { try await client.load() }
        try #require(clock.pendingCount == 1)
        await clock.advance(by: .seconds(29))
        #expect(clock.pendingCount == 1)
        await clock.advance(by: .seconds(1))
        #expect(try await load.value == posts)
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test(.virtualTime)
    func theRetryComesExactlyWhenTheServerSaid() async throws {
        let clock = try #require(VirtualClock.current)
        let client = FeedClient(clock: clock) {
            guard clock.now >= VirtualClock.Instant(ticks: 30_000) else {
                throw FeedError.rateLimited(retryAfter: .seconds(30))
            }
            return [FeedPost(id: 1, title: "Cadence 0.1")]
        }

        let load = Task.immediate { try await client.load() }
        try #require(clock.pendingCount == 1)
        await clock.advance(by: .seconds(30))
        #expect(try await load.value.map(\.title) == ["Cadence 0.1"])
    }

    @Test func aReceiptIsAddedUpOnItsQueue() async {
        await expectFailures([]) {
            let scanner = ReceiptScanner(queue: DispatchQueue(label: "scanner"))

            await expect(scanner.totalInCents(of: ["Coffee 3.50", "Bagel 2.25"]))
                .toEmit(575, timeout: .seconds(60))
                .thenFinish(timeout: .seconds(60))
            await expect(scanner.totalInCents(of: ["Coffee 3.50", "Tip ???"]))
                .toFail(with: ReceiptError.unreadable("Tip ???"), timeout: .seconds(60))
        }
    }

    @Test func theGuideShowsOnlyTestedCode() throws {
        try expectDocumentedSamples(
            in: "Guides/AsyncAwait.md",
            appearIn: [
                #filePath, "Tests/CadenceTestingTests/Documentation/AsyncAwaitGuideLoaderTests.swift",
                "Tests/CadenceTestingTests/Async/AsyncScenarios.swift",
                "Tests/CadenceTestingTests/Observation/ObservedPropertyTests.swift",
            ],
            atLeast: 12
        )
    }
}
