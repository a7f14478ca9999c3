import CadenceTesting
import ExampleApp
import Testing

/// The feed screen on virtual time: the retry backoff sleeps on the test's clock, and the view model's task runs on
/// the test's executor between the clock's ticks.
@MainActor
@Suite(.virtualTime)
struct FeedViewModelTests {
    let items = [FeedItem(id: 1, title: "Cadence 0.2"), FeedItem(id: 2, title: "Virtual time for tasks")]

    func makeViewModel(_ answers: [Result<[FeedItem], ScriptedFeedService.Offline>]) throws -> FeedViewModel {
        let clock = try #require(VirtualClock.current)
        return FeedViewModel(repository: FeedRepository(service: ScriptedFeedService(answers), clock: clock))
    }

    @Test func theFeedLoadsAtOnceWhenTheServerAnswers() async throws {
        let viewModel = try makeViewModel([.success(items)])
        let states = expect(viewModel.$state)
        viewModel.load()
        await states.running()
            .toEmit([.idle, .loading, .loaded(items)])
    }

    @Test func itRetriesAfterOneSecondThenTwo() async throws {
        let clock = try #require(VirtualClock.current)
        let viewModel = try makeViewModel([.failure(.init()), .failure(.init()), .success(items)])
        viewModel.load()
        await clock.advance(by: .seconds(2))
        #expect(viewModel.state == .loading)
        await clock.advance(by: .milliseconds(999))
        #expect(viewModel.state == .loading)
        await clock.advance(by: .milliseconds(1))
        #expect(viewModel.state == .loaded(items))
    }

    @Test func theThirdFailureIsShownAfterThreeSeconds() async throws {
        let viewModel = try makeViewModel([.failure(.init()), .failure(.init()), .failure(.init())])
        let states = expect(viewModel.$state)
        viewModel.load()
        await states.running()
            .toEmit([.idle, .loading])
            .thenEmit(.failed("Could not load the feed. Pull to refresh to try again."))
        #expect(states.events.last?.time == .tick(3000))
    }

    @Test func aSecondLoadWhileOneRunsDoesNothing() async throws {
        let viewModel = try makeViewModel([.failure(.init()), .success(items)])
        let states = expect(viewModel.$state)
        viewModel.load()
        await states.advancing(by: .milliseconds(500))
        viewModel.load()
        await states.running()
            .toEmit([.idle, .loading, .loaded(items)])
    }
}
