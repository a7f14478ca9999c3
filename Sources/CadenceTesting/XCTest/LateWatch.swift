#if canImport(XCTest)
/// What an expectation a wait on virtual time left unfulfilled saw while the wait ran the clock on past its budget
/// (see `VirtualTimeWaitable.watchAfterWait()`).
enum LateWatch: Equatable {
    /// Nothing has decided yet.
    case waiting
    /// What it waited for came: it would have been fulfilled.
    case arrived
    /// It can no longer be fulfilled: its publisher completed without it.
    case ruledOut
}
#endif
