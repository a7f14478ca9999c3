/// A lane of a test's work: what keeps its own order in every schedule an exploration tries, as it does in
/// production. Only the order *between* lanes, of work due at one instant, is chosen.
package enum ScheduleLane: Hashable, Sendable {
    /// The actions scheduled on the clock itself (`VirtualClock.schedule`, the test publishers): one serial lane.
    case clock
    /// The actions of one test scheduler instance — a serial queue — numbered from 1 in the order the run made them.
    case scheduler(UInt32)
    /// The wake-ups of tasks' sleeps, which at the clock count as one lane, first in, first out: a wake-up only makes
    /// its task ready, and the order of ready tasks is chosen where they run.
    case wakeUps
}
