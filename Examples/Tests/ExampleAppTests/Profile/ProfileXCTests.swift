#if canImport(XCTest)
import CadenceTesting
import ExampleApp
import Foundation
import XCTest

/// The profile feature's tests as an XCTest suite: the shims on a virtual clock, `withVirtualTime`, and `.values`.
final class ProfileXCTests: XCTestCase {
    private let clock = VirtualClock()
    // On the same clock: outside a virtual-time scope, each `DispatchQueue.test` has a clock of its own.
    private lazy var main = TestSchedulerOf<DispatchQueue>(clock: clock)

    private func makeRepository(answering result: Result<Profile, APIError>) -> ProfileRepository {
        ProfileRepository(userID: 42, service: .preview(answering: result, after: .milliseconds(300), on: clock))
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    func testTheNameAppearsOnceTheProfileHasLoaded() async {
        let repository = makeRepository(answering: .success(.blob))
        let viewModel = ProfileViewModel(repository: repository, mainScheduler: main.eraseToAnyScheduler())
        let named = expectation(for: viewModel, keyPath: \.name, toBe: "Blob", clock: clock)

        let load = repository.startLoading()
        clock.advance(by: .milliseconds(300))
        await load.value

        await fulfillment(of: [named], advancing: clock)
        XCTAssertFalse(viewModel.isLoading)
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    func testTheRepositoryEndsWithTheProfile() async {
        let repository = makeRepository(answering: .success(.blob))
        let loaded = PublisherValueExpectation(repository.state, expectedValue: .success(.blob))

        let load = repository.startLoading()
        clock.advance(by: .milliseconds(300))
        await load.value

        await fulfillment(of: [loaded], timeout: 0)
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    func testAFailedLoadShowsTheBanner() async {
        let repository = makeRepository(answering: .failure(.badStatus(503)))
        let viewModel = ProfileViewModel(repository: repository, mainScheduler: main.eraseToAnyScheduler())
        let banner = PublisherValueExpectation(viewModel.$errorMessage, expectedValue: "Could not load your profile.")

        let load = repository.startLoading()
        clock.advance(by: .milliseconds(300))
        await load.value

        await fulfillment(of: [banner], advancing: clock)
        XCTAssertEqual(viewModel.name, "")
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    func testNothingLoadsBeforeTheServiceAnswers() async {
        let repository = makeRepository(answering: .success(.blob))
        let loaded = PublisherValueExpectation(repository.state, expectedValue: .success(.blob))
        loaded.isInverted = true

        let load = repository.startLoading()
        await fulfillment(of: [loaded], advancing: clock, by: .milliseconds(299))

        clock.advance(by: .milliseconds(1))
        await load.value
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    func testTheStatesReadThroughValuesEndInFailure() async {
        await withVirtualTime { clock in
            let repository = ProfileRepository(
                userID: 42, service: .preview(answering: .failure(.offline), after: .seconds(2), on: clock)
            )
            let states = expect(repository.state.values)
            await states.toEmit(.idle, timeout: .seconds(5))

            let load = repository.startLoading()
            clock.advance(by: .seconds(2))
            await load.value

            await states.thenEventuallyEmit(.failure(.api(.offline)), timeout: .seconds(5))
        }
    }
}
#endif
