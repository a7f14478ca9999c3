// swift-format-ignore-file
// (The samples keep the layout their guide shows: a block of the guide appears here line for line.)
// Every sample of Guides/TestingViewModels.md, compiled and run as the guide shows it, and a check that the guide
// shows no other. Change one, change the other.
import CadenceTesting
import Foundation
import Testing

// MARK: Production code

enum PasswordResetError: Error, Equatable {
    case unknownEmail
    case offline
}

struct ResetLinkClient {
    /// Asks the server to email a reset link to `email`.
    var sendResetLink: (_ email: String) -> AnyPublisher<Void, PasswordResetError>
}

final class PasswordResetModel: ObservableObject {
    @Published var email = ""
    @Published private(set) var isSending = false
    @Published private(set) var isSubmitEnabled = false
    @Published private(set) var alert: String?

    private let client: ResetLinkClient
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private var request: AnyCancellable?

    init(client: ResetLinkClient, scheduler: AnySchedulerOf<DispatchQueue>) {
        self.client = client
        self.scheduler = scheduler
        $email.combineLatest($isSending)
            .map { email, isSending in !isSending && email.contains("@") }
            .removeDuplicates()
            .assign(to: &$isSubmitEnabled)
    }

    /// Sends the reset link; `isSending` while the request runs, then an alert on the UI scheduler.
    func submit() {
        isSending = true
        alert = nil
        request = client.sendResetLink(email)
            .receive(on: scheduler)
            .sink { [weak self] completion in
                self?.isSending = false
                switch completion {
                case .finished: self?.alert = "Check your inbox."
                case .failure(.unknownEmail): self?.alert = "No account uses this email."
                case .failure(.offline): self?.alert = "You are offline."
                }
            } receiveValue: { _ in }
    }
}

extension ResetLinkClient {
    /// A server that answers after `delay` on `scheduler`: with success, or with `error`.
    static func answering(
        after delay: DispatchQueue.SchedulerTimeType.Stride,
        on scheduler: AnySchedulerOf<DispatchQueue>,
        with error: PasswordResetError? = nil
    ) -> ResetLinkClient {
        ResetLinkClient { _ in
            let answer: AnyPublisher<Void, PasswordResetError> = error.map { Fail(error: $0).eraseToAnyPublisher() }
                ?? Just(()).setFailureType(to: PasswordResetError.self).eraseToAnyPublisher()
            return answer.delay(for: delay, scheduler: scheduler).eraseToAnyPublisher()
        }
    }
}

/// The classic mistake: derived state computed by reading the property inside its own publisher's sink.
private final class LaggingPasswordResetModel: ObservableObject {
    @Published var email = ""
    @Published private(set) var isSubmitEnabled = false
    private var validation: AnyCancellable?

    init() {
        validation = $email.sink { [weak self] _ in
            guard let self else { return }
            isSubmitEnabled = email.contains("@")   // reads the old email
        }
    }
}

/// The model without `removeDuplicates()`, for the failure the guide shows.
private final class RepeatingPasswordResetModel: ObservableObject {
    @Published var email = ""
    @Published private(set) var isSubmitEnabled = false

    init() {
        $email
            .map { $0.contains("@") }
            .assign(to: &$isSubmitEnabled)
    }
}

@Suite("Guides/TestingViewModels.md", .virtualTime)
struct TestingViewModelsGuideTests {
    let model = PasswordResetModel(
        client: .answering(after: .seconds(1), on: DispatchQueue.test.eraseToAnyScheduler()),
        scheduler: DispatchQueue.test.eraseToAnyScheduler()
    )

    @Test func thePropertyStillHoldsTheOldValueInsideTheSink() {
        var sent: [String] = []
        var stored: [String] = []
        let cancellable = model.$email.sink { email in
            sent.append(email)
            stored.append(model.email)
        }
        model.email = "blob@example.com"

        #expect(sent == ["", "blob@example.com"])
        #expect(stored == ["", ""])
        cancellable.cancel()
    }

    @Test func objectWillChangeFiresBeforeTheChangeToo() {
        var read: [String] = []
        let cancellable = model.objectWillChange.sink { read.append(model.email) }
        model.email = "blob@example.com"
        #expect(read == ["", ""])   // once for `email`, once for `isSubmitEnabled`, which follows it
        #expect(model.email == "blob@example.com")
        cancellable.cancel()
    }

    @Test func aSinkThatReadsThePropertyLagsOneChangeBehind() {
        let model = LaggingPasswordResetModel()
        model.email = "blob@example.com"
        #expect(model.isSubmitEnabled == false)
        model.email = "blob@example.co"
        #expect(model.isSubmitEnabled == true)
    }

    @Test func theLoadingFlagIncludesTheValueSentOnSubscription() {
        model.email = "blob@example.com"

        let isSending = expect(model.$isSending)
        model.submit()
        isSending.toEmit([false, true, false], within: .seconds(1))
        #expect(model.alert == "Check your inbox.")
    }

    @Test func theSubmitButtonFollowsTheEmail() {
        let isSubmitEnabled = expect(model.$isSubmitEnabled)
        model.email = "blob"
        model.email = "blob@example.com"
        isSubmitEnabled.toEmit([false, true])
    }

    @Test func withoutRemoveDuplicatesTheButtonRepeatsItself() {
        expectFailures(["""
            toEmit([false, true]) failed: value 2 of 2 differs: expected true, received false at tick 0.

                expect(Published<Bool>.Publisher)
              ✗   .toEmit([false, true])

                 tick  received      expected
                    0  subscription
                    0  false         false     toEmit([false, true])
              →     0  false         true      toEmit([false, true])
                    0  true
            """]) {
            let model = RepeatingPasswordResetModel()
            let isSubmitEnabled = expect(model.$isSubmitEnabled)
            model.email = "blob"
            model.email = "blob@example.com"
            isSubmitEnabled.toEmit([false, true])
        }
    }

    @Test func theSubmitButtonFollowsTheRequest() {
        let isSubmitEnabled = expect(model.$isSubmitEnabled)
        model.email = "blob@example.com"
        model.submit()
        isSubmitEnabled.toEmit([false, true, false]).thenEmit(true, within: .seconds(1))
    }

    @Test func anUnknownEmailGetsItsAlert() {
        let model = PasswordResetModel(
            client: .answering(after: .seconds(1), on: DispatchQueue.test.eraseToAnyScheduler(), with: .unknownEmail),
            scheduler: DispatchQueue.test.eraseToAnyScheduler()
        )
        let alert = expect(model.$alert)
        model.email = "nobody@example.com"
        model.submit()
        alert.toEmit([nil, nil]).thenEmit("No account uses this email.", within: .seconds(1))
    }

    @Test func oneChangeOfTheEmailIsTwoRedraws() {
        let changes = expect(model.objectWillChange)
        model.email = "blob@example.com"
        changes.toEmit(count: 2)
    }

    @Test func theGuideShowsOnlyTestedCode() throws {
        try expectDocumentedSamples(in: "Guides/TestingViewModels.md", appearIn: [#filePath], atLeast: 10)
    }
}

#if canImport(XCTest)
import XCTest

final class PasswordResetModelTests: XCTestCase {
    func testTheAlertTellsTheUserToCheckTheirInbox() {
        let scheduler = DispatchQueue.test
        let model = PasswordResetModel(
            client: .answering(after: .seconds(1), on: scheduler.eraseToAnyScheduler()),
            scheduler: scheduler.eraseToAnyScheduler()
        )
        model.email = "blob@example.com"
        model.submit()

        let answered = expectation(for: model, keyPath: \.alert, toBe: "Check your inbox.", clock: scheduler.clock)
        let idle = expectation(for: model, keyPath: \.isSending, toBe: false, clock: scheduler.clock)
        wait(for: [answered, idle], advancing: scheduler.clock, by: .seconds(1))
    }
}
#endif
