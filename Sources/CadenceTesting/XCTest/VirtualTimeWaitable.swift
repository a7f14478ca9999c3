#if canImport(XCTest)
/// An expectation of this library that takes part in a wait on virtual time: it may hold work to finish before the
/// wait (a ruling found while it was being created, a read of a key path after a change), and it is closed after it.
protocol VirtualTimeWaitable: AnyObject {
    /// Finishes that work now, on the calling thread.
    func settleForWait()

    /// Called once the wait has returned. An expectation that is not fulfilled by then stops observing and never
    /// calls `fulfill()` again: Apple's XCTest treats a `fulfill()` after the wait has ended as an API violation, and
    /// a later `advance` or the end-of-scope drain would otherwise bring one about. A fulfilled one keeps observing,
    /// so that an over-fulfilment after the wait is still reported (never passed on to `fulfill()`).
    func closeAfterWait()

    /// Called once the wait has returned with the expectation unfulfilled, when the wait runs the clock on past its
    /// budget to see whether what it waited for comes late: from now on it never calls `fulfill()` nor reports, but
    /// keeps observing, noting in ``lateWatch`` whether it would have been fulfilled. ``closeAfterWait()`` ends that.
    func watchAfterWait()

    /// What the expectation saw since ``watchAfterWait()``, looking at anything left pending first.
    var lateWatch: LateWatch { get }
}
#endif
