import CadenceTesting
import ExampleApp
import Foundation
import Testing

@Suite(.virtualTime)
struct ProfileViewModelTests {
    let clock = VirtualClock.current! // bound by .virtualTime, which makes the suite inside its scope
    let main = DispatchQueue.test

    func makeRepository(answering result: Result<Profile, APIError>) -> ProfileRepository {
        ProfileRepository(userID: 42, service: .preview(answering: result, after: .milliseconds(300), on: clock))
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func theSpinnerShowsWhileLoadingAndTheNameOnceLoaded() async {
        let repository = makeRepository(answering: .success(.blob))
        let viewModel = ProfileViewModel(repository: repository, mainScheduler: main.eraseToAnyScheduler())
        let spinner = expect(viewModel.$isLoading)
        let name = expect(viewModel.$name)

        let load = repository.startLoading()
        await clock.advance(by: .milliseconds(300))
        await load.value

        spinner.toEmit([false, true, false], within: .ticks(0))
        name.toEmit(["", "Blob"])
        #expect(viewModel.errorMessage == nil)
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func nothingChangesOnScreenUntilTheMainSchedulerRuns() async {
        let repository = makeRepository(answering: .success(.blob))
        let viewModel = ProfileViewModel(repository: repository, mainScheduler: main.eraseToAnyScheduler())

        let load = repository.startLoading()
        #expect(repository.state.value == .loading)
        #expect(viewModel.isLoading == false) // the state is on its way to the main scheduler
        await main.advance()
        #expect(viewModel.isLoading == true)

        await clock.advance(by: .milliseconds(300))
        await load.value
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func aFailedLoadShowsTheBannerAndStopsTheSpinner() async {
        let repository = makeRepository(answering: .failure(.badStatus(500)))
        let viewModel = ProfileViewModel(repository: repository, mainScheduler: main.eraseToAnyScheduler())
        let banner = expect(viewModel.$errorMessage)
        let spinner = expect(viewModel.$isLoading)

        let load = repository.startLoading()
        await clock.advance(by: .milliseconds(300))
        await load.value

        banner.toEmit([nil, "Could not load your profile."], within: .ticks(0))
        spinner.toEmit([false, true, false])
        #expect(viewModel.name == "")
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func aNewLoadTakesDownTheBannerOfTheLastOne() async {
        let repository = makeRepository(answering: .failure(.offline))
        let viewModel = ProfileViewModel(repository: repository, mainScheduler: main.eraseToAnyScheduler())
        let banner = expect(viewModel.$errorMessage.dropFirst())

        let failedLoad = repository.startLoading()
        await clock.advance(by: .milliseconds(300))
        await failedLoad.value
        banner.toEmit("No internet connection. Pull to refresh to try again.", within: .ticks(0))

        let retry = repository.startLoading()
        banner.thenEmit(nil, within: .ticks(0))
        #expect(viewModel.isLoading)
        await clock.advance(by: .milliseconds(300))
        await retry.value

        banner.thenEmit("No internet connection. Pull to refresh to try again.", within: .ticks(0))
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func offlineAsksTheUserToPullToRefresh() async {
        let repository = makeRepository(answering: .failure(.offline))
        let viewModel = ProfileViewModel(repository: repository, mainScheduler: main.eraseToAnyScheduler())
        let banner = expect(viewModel.$errorMessage.dropFirst())

        let load = repository.startLoading()
        await clock.advance(by: .milliseconds(300))
        await load.value

        banner.toEmit("No internet connection. Pull to refresh to try again.", within: .ticks(0))
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func theViewModelFollowsTheRepositoryThroughValues() async {
        let repository = makeRepository(answering: .success(.blob))
        let viewModel = ProfileViewModel(repository: repository, mainScheduler: main.eraseToAnyScheduler())
        let names = expect(viewModel.$name.values)

        let load = repository.startLoading()
        await clock.advance(by: .milliseconds(300))
        await load.value
        await main.advance()

        await names.toEventuallyEmit("Blob", timeout: .seconds(5))
    }
}
