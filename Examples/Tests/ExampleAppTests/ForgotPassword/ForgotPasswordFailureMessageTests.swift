import CadenceTesting
import ExampleApp
import Foundation
import Testing

/// What a developer reads when the forgot-password screen regresses: the exact failure text.
@Suite(.virtualTime)
struct ForgotPasswordFailureMessageTests {
    @Test func whenTheScreenShowsTheWrongErrorTheFailureShowsBothMessages() {
        let background = DispatchQueue.test
        let server = FakePasswordResetServer(
            answering: .failure(.badStatus(500)),
            on: background.eraseToAnyScheduler())
        let model = ForgotPasswordViewModel(
            client: server.client,
            backgroundScheduler: background.eraseToAnyScheduler(),
            mainScheduler: DispatchQueue.test.eraseToAnyScheduler()
        )
        model.email = "blob@example.com"

        let failures = recordingFailures {
            let state = expect(model.$state.dropFirst())
            model.submit()
            state.toEmit(.submitting)
                .thenEmit(.failed("No internet connection. Check your connection and try again."), within: .seconds(1))
        }

        #expect(
            failures.map(\.message) == [
                """
                thenEmit(ForgotPasswordState.failed("No internet connection. Check your connection and try again."), within: .seconds(1)) failed: the value differs: expected ForgotPasswordState.failed("No internet connection. Check your connection and try again."), received ForgotPasswordState.failed("Something went wrong. Try again later.") at tick 200.

                    expect(Publishers.Drop<Published<ForgotPasswordState>.Publisher>)
                  ✓   .toEmit(ForgotPasswordState.submitting)
                  ✗   .thenEmit(ForgotPasswordState.failed("No internet connection. Check your connection and try again."), within: .seconds(1))

                     tick  received                                  expected
                        0  subscription
                        0  ForgotPasswordState.submitting            ForgotPasswordState.submitting            toEmit(ForgotPasswordState.submitting)
                  →   200  ForgotPasswordState.failed("Something w…  ForgotPasswordState.failed("No internet…  thenEmit(ForgotPasswordState.failed("No internet connection. Check your connection and try again."), within: .seconds(1))

                Difference (- expected, + received):
                  ForgotPasswordState.failed(
                -   "No internet connection. Check your connection and try again."
                +   "Something went wrong. Try again later."
                  )
                """
            ])
    }

    @Test func whenTheServerIsSlowerThanTheBudgetTheFailureSaysHowLong() {
        let background = DispatchQueue.test
        let server = FakePasswordResetServer(after: .milliseconds(200), on: background.eraseToAnyScheduler())
        let model = ForgotPasswordViewModel(
            client: server.client,
            backgroundScheduler: background.eraseToAnyScheduler(),
            mainScheduler: DispatchQueue.test.eraseToAnyScheduler()
        )
        model.email = "blob@example.com"

        let failures = recordingFailures {
            let state = expect(model.$state.dropFirst())
            model.submit()
            state.toEmit(.submitting).thenEmit(.sent, within: .milliseconds(150))
        }

        #expect(
            failures.map(\.message) == [
                """
                thenEmit(ForgotPasswordState.sent, within: .milliseconds(150)) failed: the value (ForgotPasswordState.sent) did not arrive within 150 ticks (by tick 150); it arrived at tick 200, 50 ticks late.

                    expect(Publishers.Drop<Published<ForgotPasswordState>.Publisher>)
                  ✓   .toEmit(ForgotPasswordState.submitting)
                  ✗   .thenEmit(ForgotPasswordState.sent, within: .milliseconds(150))

                     tick  received                        expected
                        0  subscription
                        0  ForgotPasswordState.submitting  ForgotPasswordState.submitting  toEmit(ForgotPasswordState.submitting)
                  →   150  (nothing)                       ForgotPasswordState.sent        thenEmit(ForgotPasswordState.sent, within: .milliseconds(150))
                      200  ForgotPasswordState.sent
                """
            ])
    }
}
