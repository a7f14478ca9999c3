import CadenceSupport

/// A thread-safe list of reported failures, with a reporter that appends to it.
///
/// ```swift
/// let log = FailureLog()
/// FailureReporter.$current.withValue(log.reporter) {
///     expect(Just(1)).toEmit(2)
/// }
/// #expect(log.messages.count == 1)
/// ```
public final class FailureLog: Sendable {
    private let storage = Locked<[ExpectationFailure]>([])

    /// An empty log.
    public init() {}

    /// A reporter that appends each failure to this log, from any thread.
    public var reporter: FailureReporter {
        FailureReporter { [self] failure in storage.withLock { $0.append(failure) } }
    }

    /// Every failure reported so far, in order.
    public var failures: [ExpectationFailure] { storage.withLock { $0 } }

    /// The messages of every failure reported so far, in order.
    public var messages: [String] { failures.map(\.message) }
}
