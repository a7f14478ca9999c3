import CadenceTesting
import ExampleApp
import Foundation
import XCTest

/// PaymentClientTests in XCTest: the same exploration, failing through XCTAssert.
final class PaymentClientXCTests: XCTestCase {
    func testAnAnswerByTheDeadlineIsAChargeWhicheverRunsFirst() {
        withVirtualTime(explore: 20) { clock in
            let payments = PaymentClient(
                provider: FakePaymentProvider(latency: .seconds(10)),
                scheduler: DispatchQueue.test.eraseToAnyScheduler()
            )
            payments.charge(cents: 4_200)
            clock.advance(by: .seconds(10))
            XCTAssertEqual(payments.outcome, .charged(receipt: "rcpt_1"))
        }
    }
}
