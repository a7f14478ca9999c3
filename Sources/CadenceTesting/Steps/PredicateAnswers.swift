import CadenceSupport

/// A step's predicate, called at most once per recorded event and never while a lock is held.
///
/// A driver shows a waiting step the same events again each time it looks, so a step that tested every value afresh
/// would call the user's predicate many times over for one value. This remembers each answer by the event's index in
/// the recording (the drivers hand steps slices of the recorder's events, whose indices are those positions).
final class PredicateAnswers<Output>: @unchecked Sendable {
    // `answers` (a Locked) guards the remembered answers; `predicate` is immutable and only ever called outside it.
    private let answers = Locked<[Int: Bool]>([:])
    private let predicate: (Output) -> Bool

    init(_ predicate: @escaping (Output) -> Bool) {
        self.predicate = predicate
    }

    /// Whether `value`, the event at `index` of the recording, satisfies the predicate.
    func matches(_ value: Output, at index: Int) -> Bool {
        if let known = answers.withLock({ $0[index] }) { return known }
        let answer = predicate(value)
        answers.withLock { $0[index] = answer }
        return answer
    }
}
