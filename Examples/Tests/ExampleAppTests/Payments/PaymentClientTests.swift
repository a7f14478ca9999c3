import CadenceTesting
import ExampleApp
import Foundation
import Testing

/// Charging a card with a deadline. The processor's answer and the deadline are work of two queues: at the instant
/// both fall due, either may run first, and the test explores both orders.
struct PaymentClientTests {
    @Test func anAnswerByTheDeadlineIsAChargeWhicheverRunsFirst() {
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

    @Test(.virtualTime(explore: 20))
    func anAnswerAfterTheDeadlineIsATimeout() {
        let payments = PaymentClient(
            provider: FakePaymentProvider(latency: .seconds(11)),
            scheduler: DispatchQueue.test.eraseToAnyScheduler()
        )
        payments.charge(cents: 4_200)
        VirtualClock.current?.advance(by: .seconds(10))
        #expect(payments.outcome == .timedOut)
        VirtualClock.current?.advance(by: .seconds(1))
        #expect(payments.outcome == .timedOut)
    }
}
