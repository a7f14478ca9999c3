/// Every sentence an unimplemented scheduler or clock reports.
enum UnimplementedText {
    /// `DispatchQueue.unimplemented("search") was asked to schedule(options:_:) an action to run as soon as possible;
    /// an unimplemented scheduler runs nothing, so the action was not run.`; through a property, which runs it (as
    /// combine-schedulers' does), `…; an unimplemented scheduler must not be used at all. The action ran at once.`
    static func scheduled(_ scheduler: String, _ method: String, _ what: String, ranAction: Bool) -> String {
        ranAction
            ? "\(scheduler) was asked to \(method) \(what); an unimplemented scheduler must not be used at all. The "
                + "action ran at once."
            : "\(scheduler) was asked to \(method) \(what); an unimplemented scheduler runs nothing, so the action was "
                + "not run."
    }

    /// `RunLoop.unimplemented was asked for its now; an unimplemented scheduler must not be used at all.`
    static func timeRead(_ subject: String, _ property: String, kind: String) -> String {
        "\(subject) was asked for its \(property); an unimplemented \(kind) must not be used at all."
    }

    /// `UnimplementedClock("retry") was asked to sleep for 1.0 seconds; an unimplemented clock does not sleep: the
    /// sleep threw CancellationError.`
    static func slept(_ clock: String, _ how: String) -> String {
        "\(clock) was asked to sleep \(how); an unimplemented clock does not sleep: the sleep threw CancellationError."
    }
}
