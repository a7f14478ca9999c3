#if canImport(XCTest)
/// What a wait on virtual time learned by running the clock on past its budget, for each expectation it left
/// unfulfilled, as the expectation DSL's budget steps do: whether what each waited for came, and when.
struct WaitLookahead: Equatable {
    /// What became of one expectation.
    enum Arrival: Equatable {
        /// It would have been fulfilled at `tick`.
        case arrived(tick: Int64)
        /// Its publisher completed at `tick` without fulfilling it.
        case ruledOut(tick: Int64)
        /// Nothing decided it by the time the wait stopped running the clock.
        case notYet
    }

    /// Why the wait stopped running the clock before every expectation was decided.
    enum Stop: Equatable {
        /// Every expectation was decided.
        case decided
        /// The clock had nothing left to run.
        case idle
        /// It had run `actions` actions, the look-ahead's bound.
        case actionLimit(Int)
    }

    /// The budget's last tick, where the wait found the expectations unfulfilled.
    let budgetEnd: Int64
    /// For each unfulfilled expectation, in the order the wait was given them.
    let arrivals: [Arrival]
    /// The tick the wait left the clock at.
    let stoppedAt: Int64
    let stop: Stop
    /// How many actions it ran past the budget.
    let actionsRun: Int
}
#endif
