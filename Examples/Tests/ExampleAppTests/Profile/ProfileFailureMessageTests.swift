import CadenceTesting
import ExampleApp
import Foundation
import Testing

/// What a developer reads when the profile screen regresses: the exact failure text.
@Suite(.virtualTime)
struct ProfileFailureMessageTests {
    let clock = VirtualClock.current! // bound by .virtualTime, which makes the suite inside its scope

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func whenTheBannerSaysTheWrongThingTheFailureShowsBothTexts() async {
        let service = ProfileService.preview(answering: .failure(.badStatus(500)), after: .seconds(1), on: clock)
        let repository = ProfileRepository(userID: 42, service: service)
        let main = DispatchQueue.test.eraseToAnyScheduler()
        let viewModel = ProfileViewModel(repository: repository, mainScheduler: main)
        let load = repository.startLoading()
        await clock.advance(by: .seconds(1))
        await load.value

        let failures = recordingFailures {
            expect(viewModel.$errorMessage).toEmit("No internet connection. Pull to refresh to try again.")
        }

        #expect(
            failures.map(\.message) == [
                """
                toEmit("No internet connection. Pull to refresh to try again.") failed: the value differs: expected "No internet connection. Pull to refresh to try again.", received "Could not load your profile." at tick 1000.

                    expect(Published<Optional<String>>.Publisher)
                  ✗   .toEmit("No internet connection. Pull to refresh to try again.")

                     tick  received                        expected
                     1000  subscription
                  →  1000  "Could not load your profile."  "No internet connection. Pull to refres…  toEmit("No internet connection. Pull to refresh to try again.")

                Difference (- expected, + received):
                - "No internet connection. Pull to refresh to try again."
                + "Could not load your profile."
                """
            ])
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func whenTheSpinnerNeverStopsTheFailureShowsWhereItGotStuck() async {
        let service = ProfileService.preview(answering: .success(.blob), after: .seconds(30), on: clock)
        let repository = ProfileRepository(userID: 42, service: service)
        let main = DispatchQueue.test.eraseToAnyScheduler()
        let viewModel = ProfileViewModel(repository: repository, mainScheduler: main)
        let load = repository.startLoading()

        let failures = recordingFailures {
            expect(viewModel.$isLoading).toEmit([false, true, false], within: .seconds(10))
        }

        #expect(
            failures.map(\.message) == [
                """
                toEmit([false, true, false], within: .seconds(10)) failed: value 3 of 3 (false) did not arrive within 10000 ticks (by tick 10000); it arrived at tick 30000, 20000 ticks late.

                    expect(Published<Bool>.Publisher)
                  ✗   .toEmit([false, true, false], within: .seconds(10))

                      tick  received      expected
                         0  subscription
                         0  false         false     toEmit([false, true, false], within: .seconds(10))
                         0  true          true      toEmit([false, true, false], within: .seconds(10))
                  →  10000  (nothing)     false     toEmit([false, true, false], within: .seconds(10))
                     30000  false
                """
            ])
        await clock.advance(by: .seconds(30))
        await load.value
    }
}
