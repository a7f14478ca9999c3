import CadenceTesting
import ExampleApp
import Foundation
import Testing

@Suite(.virtualTime)
struct ForgotPasswordViewModelTests {
    let background = DispatchQueue.test
    let main = DispatchQueue.test

    func makeModel(server: FakePasswordResetServer) -> ForgotPasswordViewModel {
        ForgotPasswordViewModel(
            client: server.client,
            backgroundScheduler: background.eraseToAnyScheduler(),
            mainScheduler: main.eraseToAnyScheduler()
        )
    }

    @Test func submitIsEnabledOnlyForAPlausibleEmail() {
        let model = makeModel(server: FakePasswordResetServer(on: background.eraseToAnyScheduler()))
        let enabled = expect(model.$isSubmitEnabled)

        model.email = "blob"
        model.email = "blob@example"
        model.email = "blob@example.com"
        model.email = "blob@example.com "
        model.email = ""

        enabled.toEmit([false, true, false])
    }

    @Test func submitShowsSentOnceTheServerAnswers() {
        let server = FakePasswordResetServer(after: .milliseconds(200), on: background.eraseToAnyScheduler())
        let model = makeModel(server: server)
        model.email = " blob@example.com"
        let state = expect(model.$state)

        model.submit()

        state.toEmit([.idle, .submitting]).thenEmit(.sent, within: .milliseconds(200))
        #expect(server.emails == ["blob@example.com"])
    }

    @Test func theRequestIsMadeOnTheBackgroundSchedulerNotOnTheCallersThread() {
        let server = FakePasswordResetServer(on: background.eraseToAnyScheduler())
        let model = makeModel(server: server)
        model.email = "blob@example.com"

        model.submit()
        #expect(server.emails == []) // subscribe(on:) has only scheduled the request
        background.advance()
        #expect(server.emails == ["blob@example.com"])
        background.run() // lets the server answer: work left on the clock would fail the test
    }

    @Test func theAnswerReachesTheScreenOnlyThroughTheMainScheduler() {
        let main = TestSchedulerOf<DispatchQueue>(clock: VirtualClock()) // a timeline of its own, driven by hand
        let server = FakePasswordResetServer(after: .milliseconds(200), on: background.eraseToAnyScheduler())
        let model = ForgotPasswordViewModel(
            client: server.client,
            backgroundScheduler: background.eraseToAnyScheduler(),
            mainScheduler: main.eraseToAnyScheduler()
        )
        model.email = "blob@example.com"

        model.submit()
        background.advance(by: .milliseconds(200))
        #expect(model.state == .submitting) // answered, and waiting for the main scheduler
        main.advance()
        #expect(model.state == .sent)
    }

    @Test func theButtonIsDisabledWhileTheRequestIsOnItsWay() {
        let model = makeModel(server: FakePasswordResetServer(on: background.eraseToAnyScheduler()))
        model.email = "blob@example.com"
        let enabled = expect(model.$isSubmitEnabled)

        model.submit()

        enabled.toEmit([true, false])
            .thenEmitNothing(for: .milliseconds(199))
            .thenEmit(true, within: .milliseconds(1))
    }

    @Test func anAPIErrorShowsWhatWentWrong() {
        let server = FakePasswordResetServer(answering: .failure(.offline), on: background.eraseToAnyScheduler())
        let model = makeModel(server: server)
        model.email = "blob@example.com"
        let state = expect(model.$state)

        model.submit()

        state.toEmit([.idle, .submitting])
            .thenEmit(
                .failed("No internet connection. Check your connection and try again."),
                within: .milliseconds(200))
    }

    @Test func tooManyAttemptsAsksTheUserToWait() {
        let server = FakePasswordResetServer(answering: .failure(.badStatus(429)), on: background.eraseToAnyScheduler())
        let model = makeModel(server: server)
        model.email = "blob@example.com"
        let state = expect(model.$state.dropFirst())

        model.submit()

        state.toEmit(.submitting)
            .thenEmit(.failed("Too many attempts. Try again in a few minutes."), within: .milliseconds(200))
    }

    @Test func submitDoesNothingForAnImplausibleEmail() {
        let server = FakePasswordResetServer(on: background.eraseToAnyScheduler())
        let model = ForgotPasswordViewModel(
            client: server.client,
            backgroundScheduler: .unimplemented("background"), // any scheduling fails the test
            mainScheduler: .unimplemented("main")
        )
        model.email = "blob@"

        model.submit()

        #expect(model.state == .idle)
        #expect(server.emails == [])
    }
}
