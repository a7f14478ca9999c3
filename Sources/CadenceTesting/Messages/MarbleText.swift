extension MarbleDiagram.SyntaxError {
    /// What is wrong, as the end of the sentence `"toMatch(…) failed: <description>."`.
    var description: String {
        switch self {
        case .empty:
            "the diagram is empty; write at least one tick, as \"-\" (a tick with no event) or \"|\" "
                + "(finished at once)"
        case let .unclosedGroup(position):
            "the group opened at character \(position) is never closed; close it with \")\""
        case let .unopenedGroupEnd(position):
            "\")\" at character \(position) closes no group"
        case let .nestedGroup(position, outer):
            "\"(\" at character \(position) opens a group inside the group opened at character \(outer); groups "
                + "do not nest"
        case let .emptyGroup(position):
            "the group at character \(position) is empty; a group lists the events of one tick, as \"(ab)\" or "
                + "\"(c|)\""
        case let .quietTickInGroup(position):
            "\"-\" at character \(position) is inside a group; a group is a single tick, so no tick can pass "
                + "inside it"
        case let .progressionInGroup(position):
            "the time progression at character \(position) is inside a group; a group is a single tick, so no "
                + "time can pass inside it"
        case let .tooLong(position, maxTicks):
            "the diagram runs past \(maxTicks.formatted) ticks at character \(position); state a longer wait "
                + "with a budget (within:) instead"
        case let .afterCompletion(character, position, completion, completedAt):
            "\"\(character)\" at character \(position) follows the completion \"\(completion)\" at character "
                + "\(completedAt); a diagram ends with its \"|\" or \"#\""
        }
    }
}
