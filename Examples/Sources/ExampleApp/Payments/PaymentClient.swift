import Cadence
import Foundation

/// Charges a card with a deadline: the processor answers on its queue, the deadline fires on the client's, and the
/// outcome is kept under a lock.
///
/// ```swift
/// let payments = PaymentClient(provider: processor, scheduler: DispatchQueue.main.eraseToAnyScheduler())
/// payments.charge(cents: 4_200)   // outcome: .pending, then .charged(receipt:) or .timedOut
/// ```
///
/// An answer that arrives by the deadline counts, even when the deadline, due at the same instant, ran first: the
/// processor has taken the money, and a screen that says "timed out" makes the customer pay twice. A first version
/// let whichever of the two ran first decide; `withVirtualTime(explore:)` found it (Guides/ScheduleExploration.md).
public final class PaymentClient {
    private let provider: any PaymentProvider
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let timeout: DispatchQueue.SchedulerTimeType.Stride
    /// Guards `current` and `charge`: the answer and the deadline run on two queues.
    private let state = NSLock()
    private var current = PaymentOutcome.pending
    private var charge: AnyCancellable?

    /// A client that charges through `provider`, giving up after `timeout` timed on `scheduler`.
    public init(
        provider: any PaymentProvider,
        scheduler: AnySchedulerOf<DispatchQueue>,
        timeout: DispatchQueue.SchedulerTimeType.Stride = .seconds(10)
    ) {
        self.provider = provider
        self.scheduler = scheduler
        self.timeout = timeout
    }

    /// How the charge stands.
    public var outcome: PaymentOutcome {
        state.withLock { current }
    }

    /// Charges `cents`: the outcome is `.pending` until the processor answers or the deadline passes.
    public func charge(cents: Int) {
        let deadline = scheduler.now.advanced(by: timeout)
        let answers = provider.charge(cents: cents).sink { [self] receipt in
            let arrived = scheduler.now
            state.withLock {
                // By the deadline, the answer wins — even over a deadline that ran first at that instant.
                if current == .pending || (current == .timedOut && arrived <= deadline) {
                    current = .charged(receipt: receipt)
                }
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
