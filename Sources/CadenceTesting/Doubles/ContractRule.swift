/// A rule of the subscription contract that ``checkPublisherContract(on:fileID:filePath:line:column:_:)`` checks,
/// numbered as in the Reactive Streams specification where it has a counterpart there, and `C.` for Cadence's own.
enum ContractRule: String, CaseIterable, Sendable {
    /// No more values than requested.
    case beyondDemand = "1.1"
    /// Signals one at a time, never from two threads at once.
    case serialSignals = "1.3"
    /// Nothing after a completion.
    case afterCompletion = "1.7"
    /// Nothing after a cancel.
    case afterCancel = "1.8"
    /// A subscription first, and always one.
    case subscriptionFirst = "1.9"
    /// One subscription only.
    case oneSubscription = "2.12"
    /// A request after a cancel does nothing.
    case requestAfterCancel = "3.6"
    /// A cancelled or completed subscription lets go of its subscriber.
    case releasesSubscriber = "3.13"
    /// `request(_:)` and `cancel()` return, even called from several threads at once.
    case returns = "C.1"

    /// The rule's id: `"1.1"`, `"C.1"`.
    var id: String { rawValue }
}
