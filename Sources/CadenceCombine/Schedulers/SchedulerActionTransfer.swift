/// Carries a scheduler action — Combine's non-`Sendable` `() -> Void` — into Dispatch, a run loop or an operation
/// queue, whose APIs take `@Sendable` closures.
///
/// Why this is sound: `Scheduler` is Combine's contract, older than `Sendable`. A caller that schedules an action
/// hands it over: the scheduler then owns it and calls it on the scheduler's own execution context, at most once per
/// scheduled run (or once per fire of a repeating action, never two at a time on a serial queue), and the caller does
/// not call it itself. Whatever the action captures is, by that contract, the caller's to make safe to touch from the
/// scheduler's context — exactly as when Combine hands the very same closure to Dispatch on Apple platforms. The box
/// only crosses that boundary; it never calls the action concurrently with itself beyond what the scheduler does.
struct SchedulerActionTransfer: @unchecked Sendable { // the action is handed over, never shared (see above)
    let action: () -> Void

    init(_ action: @escaping () -> Void) {
        self.action = action
    }

    func run() {
        action()
    }
}
