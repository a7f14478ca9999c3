#if canImport(XCTest)
import CadenceTesting
import ExampleApp
import XCTest

/// The feed screen from XCTest, on Linux too: a nonisolated `async` test method (a `@MainActor` one breaks test
/// discovery on Linux) that hops to the main actor with `await MainActor.run`.
final class FeedViewModelXCTests: XCTestCase {
    func testItRetriesAfterTheBackoffAndShowsTheFeed() async {
        let items = [FeedItem(id: 1, title: "Cadence 0.2")]
        await withVirtualTime { clock in
            let service = ScriptedFeedService([.failure(.init()), .success(items)])
            let viewModel = await MainActor.run {
                FeedViewModel(repository: FeedRepository(service: service, clock: clock))
            }
            await MainActor.run { viewModel.load() }
            await clock.advance(by: .milliseconds(999))
            let waiting = await MainActor.run { viewModel.state }
            XCTAssertEqual(waiting, .loading)
            await clock.advance(by: .milliseconds(1))
            let loaded = await MainActor.run { viewModel.state }
            XCTAssertEqual(loaded, .loaded(items))
        }
    }
}
#endif
