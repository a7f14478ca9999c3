// swift-format-ignore-file
// (The samples keep the layout their guide shows: a block of the guide appears here line for line.)
// Every sample of Guides/ScheduleExploration.md, compiled and run as the guide shows it — the first version of the
// Examples' PaymentClient, with its race, and the exact report that finds it — and a check that the guide shows no
// other. The fixed version and its tests are the Examples' (Examples/…/Payments). Change one, change the other.
import CadenceTesting
import Foundation
import Testing

/// How a charge ended (the Examples' `PaymentOutcome`).
private enum PaymentOutcome: Equatable {
    case pending
    case charged(receipt: String)
    case timedOut
}

/// The card processor (the Examples' `PaymentProvider`).
private protocol PaymentProvider {
    func charge(cents: Int) -> AnyPublisher<String, Never>
}

/// The Examples' `FakePaymentProvider`: the answer after `latency`, on a queue of its own.
private struct FakePaymentProvider: PaymentProvider {
    let queue = DispatchQueue.test
    var receipt = "rcpt_1"
    var latency: DispatchQueue.SchedulerTimeType.Stride = .seconds(10)

    func charge(cents: Int) -> AnyPublisher<String, Never> {
        Just(receipt).delay(for: latency, scheduler: queue).eraseToAnyPublisher()
    }
}

/// The first version of the Examples' `PaymentClient`: whichever of the answer and the deadline runs first decides.
private final class PaymentClient {
    private let provider: any PaymentProvider
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let timeout: DispatchQueue.SchedulerTimeType.Stride
    private let state = NSLock()
    private var current = PaymentOutcome.pending
    private var charge: AnyCancellable?

    init(
        provider: any PaymentProvider,
        scheduler: AnySchedulerOf<DispatchQueue>,
        timeout: DispatchQueue.SchedulerTimeType.Stride = .seconds(10)
    ) {
        self.provider = provider
        self.scheduler = scheduler
        self.timeout = timeout
    }

    var outcome: PaymentOutcome {
        state.withLock { current }
    }

    func charge(cents: Int) {
        let deadline = scheduler.now.advanced(by: timeout)
        let answers = provider.charge(cents: cents).sink { [self] receipt in
            state.withLock {
                if current == .pending { current = .charged(receipt: receipt) }
            }
        }
        state.withLock {
            current = .pending
            charge = answers
        }
        scheduler.schedule(after: deadline) { [self] in
            state.withLock {
                if current == .pending { current = .timedOut }
            }
        }
    }
}

@Suite("Guides/ScheduleExploration.md")
struct ScheduleExplorationGuideTests {
    /// The guide's test, line for line, against the first version.
    private func anAnswerByTheDeadlineIsAChargeWhicheverRunsFirst() {
        withVirtualTime(explore: 20) { clock in
            let payments = PaymentClient(
                provider: FakePaymentProvider(latency: .seconds(10)),
                scheduler: DispatchQueue.test.eraseToAnyScheduler()
            )
            payments.charge(cents: 4_200)
            clock.advance(by: .seconds(10))
            #expect(payments.outcome == .charged(receipt: "rcpt_1"))
        }
    }

    @Test(.quietKnownIssues) func theFirstVersionFailsInTheScheduleTheGuideShows() {
        let messages = Synchronized<[String]>([])
        withKnownIssue {
            anAnswerByTheDeadlineIsAChargeWhicheverRunsFirst()
        } matching: { issue in
            messages.update { $0.append(issue.comments.map(\.rawValue).joined()) }
            return true
        }
        let report = """
            withVirtualTime(explore: 20): run 3 failed; runs 1 and 2 passed, run 1 in first-in first-out order.
            It fails in schedule 0x1E20000000000001, which differs from first-in first-out order in 1 choice:
              at tick 10000, the action of the 2nd DispatchQueue.test ran before the action of the 1st DispatchQueue.test
            Replay that schedule, run after run, with withVirtualTime(schedule: 0x1E20000000000001).
            """
        #expect(messages.value.count == 2)
        #expect(messages.value.last == report)
    }

    /// The guide's replay, line for line.
    private func replayTheFailingSchedule() {
        withVirtualTime(schedule: 0x1E20000000000001) { clock in
            let payments = PaymentClient(
                provider: FakePaymentProvider(latency: .seconds(10)),
                scheduler: DispatchQueue.test.eraseToAnyScheduler()
            )
            payments.charge(cents: 4_200)
            clock.advance(by: .seconds(10))
            #expect(payments.outcome == .charged(receipt: "rcpt_1"))
        }
    }

    @Test(.quietKnownIssues) func theSeedReplaysTheFailureRunAfterRun() {
        let messages = Synchronized<[String]>([])
        for _ in 1...20 {
            withKnownIssue {
                replayTheFailingSchedule()
            } matching: { issue in
                messages.update { $0.append(issue.description) }
                return true
            }
        }
        #expect(messages.value.count == 20)
        #expect(messages.value.allSatisfy { $0.contains("payments.outcome → .timedOut") })
    }

    @Test func theGuideShowsOnlyTestedCode() throws {
        try expectDocumentedSamples(
            in: "Guides/ScheduleExploration.md",
            appearIn: [
                #filePath,
                "Examples/Sources/ExampleApp/Payments/PaymentClient.swift",
                "Examples/Tests/ExampleAppTests/Payments/PaymentClientTests.swift",
                "Examples/Tests/ExampleAppTests/Payments/PaymentClientXCTests.swift",
                "Tests/CadenceTestingTests/Traits/ScheduleExplorationTests.swift",
            ],
            atLeast: 7
        )
    }
}
