import Cadence
import Dispatch
import Testing

/// Checks what a debugger shows for a subscription or subscriber: its `description`, the labels of its mirror's
/// children, and its `playgroundDescription`.
func expectSlicingReflection(
    of subject: Any?,
    description: String,
    mirrorLabels: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let subject else {
        Issue.record("nothing to reflect: expected \"\(description)\"", sourceLocation: sourceLocation)
        return
    }
    #expect(String(describing: subject) == description, sourceLocation: sourceLocation)
    let labels = Mirror(reflecting: subject).children.map { $0.label ?? "" }
    #expect(labels == mirrorLabels, sourceLocation: sourceLocation)
    let playground = (subject as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
    #expect(playground == description, sourceLocation: sourceLocation)
}

extension TestSubscriber {
    /// The recorded events as text (`"value(1)"`, `"failure(oops)"`), for subscribers whose failure type is not
    /// `Equatable`, such as `any Error`.
    var slicingEventTexts: [String] { events.map(\.description) }
}

/// Runs each lane on its own thread at the same time and returns when all are done.
func slicingRace(_ lanes: [@Sendable () -> Void]) {
    DispatchQueue.concurrentPerform(iterations: lanes.count) { lanes[$0]() }
}
