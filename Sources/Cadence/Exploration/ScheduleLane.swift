/// A lane of a test's work: what keeps its own order in every schedule an exploration tries, as it does in
/// production. Only the order *between* lanes, of work due at one instant, is chosen.
package enum ScheduleLane: Hashable, Sendable {
    /// The actions scheduled on the clock itself (`VirtualClock.schedule`, the test publishers): one serial lane.
    case clock
    /// The actions of one test scheduler instance — a serial queue — numbered from 1 in the order the run made them.
    case scheduler(UInt32)
    /// The wake-up of one task's sleep (by task identifier; 0 for a task the clock could not name): the timers of
    /// different tasks promise no order between them, so wake-ups due at one tick may go in any order, and a task
    /// sleeps once at a time. On the main actor, the order tasks wake in is the order they run in: its queue is
    /// first in, first out.
    case wakeUp(task: UInt64)
    /// The jobs a session runs on the main actor: its queue is first in, first out.
    case mainActor
    /// The ready jobs of one task off the main actor, by task identifier: a task's steps run one after another.
    case task(UInt64)
    /// A ready job that goes on with no task — an actor's job, say — by its address: a lane of one job.
    case job(UInt)
}
