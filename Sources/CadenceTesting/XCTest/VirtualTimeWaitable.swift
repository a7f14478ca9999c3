#if canImport(XCTest)
/// An expectation of this library that may hold work to finish before a wait on virtual time: a ruling found while
/// it was being created, or a read of a key path after a change.
protocol VirtualTimeWaitable: AnyObject {
    /// Finishes that work now, on the calling thread.
    func settleForWait()
}
#endif
