import CadenceTesting
import ExampleApp
import Foundation

/// A card processor that answers every charge with `receipt` after `latency`, on a queue of its own: one more
/// `DispatchQueue.test`, made on the test's clock, so its answer and the client's deadline are two serial queues'
/// work that may go in either order when they fall due together.
struct FakePaymentProvider: PaymentProvider {
    let queue = DispatchQueue.test
    var receipt = "rcpt_1"
    var latency: DispatchQueue.SchedulerTimeType.Stride = .seconds(10)

    func charge(cents: Int) -> AnyPublisher<String, Never> {
        Just(receipt).delay(for: latency, scheduler: queue).eraseToAnyPublisher()
    }
}
