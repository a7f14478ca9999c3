/// One event of one chain, for ``expectInOrder(_:within:fileID:filePath:line:column:)``: `chain.emits(value)`,
/// `chain.finishes()`, `chain.fails()`.
public struct OrderedEvent: @unchecked Sendable {
    // Immutable. The closures read the chain's recorder, which is thread-safe.
    let clock: VirtualClock?
    /// The chain's recorder, to lay each chain's events out once in the timeline.
    let chain: ObjectIdentifier
    /// The chain's label, if it has one.
    let label: String?
    /// The chain's publisher's type, to name a chain without a label.
    let publisherType: Any.Type
    /// Which event of the chain this is.
    let kind: Kind
    /// The first of the chain's events from `index` on that is this one and comes after `stamp`; how far the
    /// search read; and the first such event at any time.
    let find:
        @Sendable (_ index: Int, _ stamp: TimelineStamp?)
            -> (found: TimelineStamp?, readTo: Int, first: TimelineStamp?)
    /// The chain's events for the timeline: when each came, and what it was.
    let rows: @Sendable () -> [(stamp: TimelineStamp, event: String)]

    /// Which event of a chain an ``OrderedEvent`` is.
    enum Kind {
        /// The chain's publisher sent a value, described as the failure message shows it.
        case emits(String)
        case finishes
        case fails
    }
}
