#if canImport(XCTest)
import CadenceTesting
import ExampleApp
import Foundation
import XCTest

/// The forgot-password screen's tests as an XCTest suite: the shims, on virtual time and — once — on real queues.
final class ForgotPasswordViewModelXCTests: XCTestCase {
    // One clock for both schedulers: outside a virtual-time scope, each `DispatchQueue.test` has a clock of its own.
    private let clock = VirtualClock()
    private lazy var background = TestSchedulerOf<DispatchQueue>(clock: clock)
    private lazy var main = TestSchedulerOf<DispatchQueue>(clock: clock)

    private func makeModel(answering answer: Result<Void, APIError> = .success(())) -> ForgotPasswordViewModel {
        let server = FakePasswordResetServer(answering: answer, on: background.eraseToAnyScheduler())
        return ForgotPasswordViewModel(
            client: server.client,
            backgroundScheduler: background.eraseToAnyScheduler(),
            mainScheduler: main.eraseToAnyScheduler()
        )
    }

    func testSubmitIsEnabledOnlyForAPlausibleEmail() {
        let model = makeModel()
        let enabled = expectation(for: model, keyPath: \.isSubmitEnabled, toBe: true, clock: clock)

        model.email = "blob@example"
        XCTAssertFalse(model.isSubmitEnabled)
        model.email = "blob@example.com"

        wait(for: [enabled], advancing: clock)
    }

    func testSubmitShowsSentOnceTheServerAnswers() {
        let model = makeModel()
        model.email = "blob@example.com"
        let sent = expectation(for: model, keyPath: \.state, toBe: .sent, clock: clock)

        model.submit()

        wait(for: [sent], advancing: clock, by: .milliseconds(200))
    }

    func testTheButtonIsDisabledWhileTheRequestIsOnItsWay() {
        let model = makeModel()
        model.email = "blob@example.com"
        let disabled = PublisherValueExpectation(model.$isSubmitEnabled.dropFirst(), expectedValue: false)
        let enabledAgain = PublisherValueExpectation(model.$isSubmitEnabled.dropFirst(2), expectedValue: true)

        model.submit()
        wait(for: [disabled], advancing: clock, by: .milliseconds(199))
        wait(for: [enabledAgain], advancing: clock, by: .milliseconds(1))
    }

    func testAnAPIErrorShowsWhatWentWrong() {
        let model = makeModel(answering: .failure(.offline))
        model.email = "blob@example.com"
        let failed = PublisherValueExpectation(
            model.$state, expectedValue: .failed("No internet connection. Check your connection and try again.")
        )

        model.submit()

        wait(for: [failed], advancing: clock, by: .milliseconds(200))
    }

    func testAnImplausibleEmailNeverReachesTheServer() {
        withVirtualTime { _ in
            // Inside withVirtualTime, every DispatchQueue.test shares its clock, which `expect` drives.
            let scheduler = DispatchQueue.test.eraseToAnyScheduler()
            let server = FakePasswordResetServer(on: scheduler)
            let model = ForgotPasswordViewModel(
                client: server.client, backgroundScheduler: scheduler,
                mainScheduler: scheduler)
            let state = expect(model.$state)
            model.email = "blob@"

            model.submit()

            state.toEmit(.idle).thenEmitNothing(for: .seconds(5))
            XCTAssertEqual(server.emails, [])
        }
    }

    /// The same flow on real queues, as an app runs it: the answer reaches the main queue, which `wait` runs.
    ///
    /// The one test in this package that runs on real queues and takes wall-clock time (the server answers after
    /// 10 ms). It is here to show that `expectation(for:keyPath:toBe:)` and `wait(for:timeout:)` work on real queues
    /// too, for code that cannot take a test scheduler; the 5 s timeout only bounds a hang — nothing is timed.
    func testOnRealQueuesTheAnswerArrivesOnTheMainQueue() {
        let server = FakePasswordResetServer(after: .milliseconds(10), on: DispatchQueue.global().eraseToAnyScheduler())
        let model = ForgotPasswordViewModel(
            client: server.client,
            backgroundScheduler: DispatchQueue.global().eraseToAnyScheduler(),
            mainScheduler: DispatchQueue.main.eraseToAnyScheduler()
        )
        model.email = "blob@example.com"
        let sent = expectation(for: model, keyPath: \.state, toBe: .sent)

        model.submit()

        wait(for: [sent], timeout: 5)
        XCTAssertEqual(server.emails, ["blob@example.com"])
    }
}
#endif
