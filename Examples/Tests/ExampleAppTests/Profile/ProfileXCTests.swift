#if canImport(XCTest)
import CadenceTesting
import ExampleApp
import Foundation
import XCTest

/// The profile feature's tests as an XCTest suite: the shims on a virtual clock, `withVirtualTime`, and `.values`.
final class ProfileXCTests: XCTestCase {
    // XCTest on Apple platforms finds test methods at run time, availability or not: each test skips itself where
    // `Task.immediate` (which starts a load up to its sleep) is missing.
    static let needsTaskImmediate = "starting a load with Task.immediate needs macOS 26, iOS 26, tvOS 26, watchOS 26"
    private let clock = VirtualClock()
    // On the same clock: outside a virtual-time scope, each `DispatchQueue.test` has a clock of its own.
    private lazy var main = TestSchedulerOf<DispatchQueue>(clock: clock)

    private func makeRepository(answering result: Result<Profile, APIError>) -> ProfileRepository {
        ProfileRepository(userID: 42, service: .preview(answering: result, after: .milliseconds(300), on: clock))
    }

    func testTheNameAppearsOnceTheProfileHasLoaded() async throws {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else {
            throw XCTSkip(Self.needsTaskImmediate)
        }
        let repository = makeRepository(answering: .success(.blob))
        let viewModel = ProfileViewModel(repository: repository, mainScheduler: main.eraseToAnyScheduler())
        let named = expectation(for: viewModel, keyPath: \.name, toBe: "Blob", clock: clock)

        let load = repository.startLoading()
        await clock.advance(by: .milliseconds(300))
        await load.value

        await fulfillment(of: [named], advancing: clock)
        XCTAssertFalse(viewModel.isLoading)
    }

    func testTheRepositoryEndsWithTheProfile() async throws {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else {
            throw XCTSkip(Self.needsTaskImmediate)
        }
        let repository = makeRepository(answering: .success(.blob))
        let loaded = PublisherValueExpectation(repository.state, expectedValue: .success(.blob))

        let load = repository.startLoading()
        await clock.advance(by: .milliseconds(300))
        await load.value

        await fulfillment(of: [loaded], timeout: 0)
    }

    func testAFailedLoadShowsTheBanner() async throws {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else {
            throw XCTSkip(Self.needsTaskImmediate)
        }
        let repository = makeRepository(answering: .failure(.badStatus(503)))
        let viewModel = ProfileViewModel(repository: repository, mainScheduler: main.eraseToAnyScheduler())
        let banner = PublisherValueExpectation(viewModel.$errorMessage, expectedValue: "Could not load your profile.")

        let load = repository.startLoading()
        await clock.advance(by: .milliseconds(300))
        await load.value

        await fulfillment(of: [banner], advancing: clock)
        XCTAssertEqual(viewModel.name, "")
    }

    func testNothingLoadsBeforeTheServiceAnswers() async throws {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else {
            throw XCTSkip(Self.needsTaskImmediate)
        }
        let repository = makeRepository(answering: .success(.blob))
        let loaded = PublisherValueExpectation(repository.state, expectedValue: .success(.blob))
        loaded.isInverted = true

        let load = repository.startLoading()
        await fulfillment(of: [loaded], advancing: clock, by: .milliseconds(299))

        await clock.advance(by: .milliseconds(1))
        await load.value
    }

    func testTheStatesReadThroughValuesEndInFailure() async throws {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else {
            throw XCTSkip(Self.needsTaskImmediate)
        }
        await withVirtualTime { clock in
            let repository = ProfileRepository(
                userID: 42, service: .preview(answering: .failure(.offline), after: .seconds(2), on: clock)
            )
            let states = expect(repository.state.values)
            await states.toEmit(.idle, timeout: .seconds(5))

            let load = repository.startLoading()
            await clock.advance(by: .seconds(2))
            await load.value

            await states.thenEventuallyEmit(.failure(.api(.offline)), timeout: .seconds(5))
        }
    }
}
#endif
