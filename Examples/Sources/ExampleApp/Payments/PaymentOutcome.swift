/// How a charge ended, as the checkout screen shows it.
public enum PaymentOutcome: Equatable, Sendable {
    /// Still waiting for the processor.
    case pending
    /// The processor took the money; here is its receipt.
    case charged(receipt: String)
    /// No answer by the deadline: the screen offers to try again.
    case timedOut
}
