import Cadence

/// The card processor: charges a card and answers with a receipt number, on the processor's own queue.
public protocol PaymentProvider {
    /// Charges `cents` to the card on file; the receipt, once the processor has taken the money.
    func charge(cents: Int) -> AnyPublisher<String, Never>
}
