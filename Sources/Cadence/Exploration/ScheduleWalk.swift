/// The depth-first walk over every schedule of a test whose same-instant choices are few enough to try them all.
///
/// A run that follows `choices` (``ScheduleStrategy/choices(_:)``) comes to choice points with so many candidates
/// each; from its log the walk takes the next list of choices in depth-first order: the same up to the last point
/// with an alternative not yet tried, that alternative there, and the first candidate everywhere after. Starting
/// from first-in first-out order (no choices), it visits each leaf of the tree of schedules once, provided each run
/// of the test comes to the same choice points when it makes the same choices.
package enum ScheduleWalk {
    /// The choices of the run after the one whose `log` is given, or nil when that run was the last leaf.
    package static func next(after log: [ScheduleChoice]) -> [Int]? {
        guard let last = log.lastIndex(where: { $0.chosen + 1 < $0.candidates.count }) else { return nil }
        return log[..<last].map(\.chosen) + [log[last].chosen + 1]
    }
}
