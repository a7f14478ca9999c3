/// One point where work of more than one lane was due at the same instant, and the lane that went first.
package struct ScheduleChoice: Equatable, Sendable {
    /// Where the choice was made.
    package enum Kind: Equatable, Sendable {
        /// Between the clock's entries due at one tick.
        case clock
        /// Between the ready jobs of a session's executor.
        case executor
    }

    package let kind: Kind
    package let tick: Int64
    /// The lanes with work due then, in first-in first-out order: the first is the one today's order takes.
    package let candidates: [ScheduleLane]
    /// The index in `candidates` of the lane that went first.
    package let chosen: Int

    package init(kind: Kind, tick: Int64, candidates: [ScheduleLane], chosen: Int) {
        self.kind = kind
        self.tick = tick
        self.candidates = candidates
        self.chosen = chosen
    }
}
