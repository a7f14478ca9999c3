import Cadence
import ExampleApp
import Foundation

/// A password-reset endpoint that answers from memory, after a latency on a scheduler, and keeps the addresses it
/// was asked about.
final class FakePasswordResetServer: @unchecked Sendable {
    // `lock` guards `received`; the lets never change.
    private let answer: Result<Void, APIError>
    private let latency: DispatchQueue.SchedulerTimeType.Stride
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let lock = NSLock()
    private var received: [String] = []

    /// A server answering `answer`, `latency` after each request, on `scheduler`.
    init(
        answering answer: Result<Void, APIError> = .success(()),
        after latency: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(200),
        on scheduler: AnySchedulerOf<DispatchQueue>
    ) {
        self.answer = answer
        self.latency = latency
        self.scheduler = scheduler
    }

    /// The addresses a reset was requested for, in order.
    var emails: [String] { lock.withLock { received } }

    /// The server as the view model's client. Like a data task, the request goes out when the publisher is
    /// subscribed to, not when it is made.
    var client: PasswordResetClient {
        PasswordResetClient { [self] email in
            Deferred { [self] in
                lock.withLock { received.append(email) }
                return answer.publisher.delay(for: latency, scheduler: scheduler)
            }
            .eraseToAnyPublisher()
        }
    }
}
