import CadenceTesting

/// A subject that never fails, sending each of `values` at its tick on `clock`, then `completion` at its tick.
///
/// ```swift
/// let numbers = scheduledSubject(on: clock, [(1, 10), (3, 20)], completion: (4, .finished))
/// ```
func scheduledSubject<Output>(
    on clock: VirtualClock,
    _ values: [(tick: Int64, value: Output)],
    completion: (tick: Int64, completion: Subscribers.Completion<Never>)? = nil
) -> PassthroughSubject<Output, Never> {
    scheduledSubject(on: clock, values, completion: completion, failing: Never.self)
}

/// A subject that sends each of `values` at its tick on `clock`, then `completion` at its tick, if given.
func scheduledSubject<Output, Failure: Error>(
    on clock: VirtualClock,
    _ values: [(tick: Int64, value: Output)],
    completion: (tick: Int64, completion: Subscribers.Completion<Failure>)?,
    failing _: Failure.Type
) -> PassthroughSubject<Output, Failure> {
    let subject = PassthroughSubject<Output, Failure>()
    for (tick, value) in values {
        clock.schedule(at: VirtualClock.Instant(ticks: tick)) { subject.send(value) }
    }
    if let (tick, completion) = completion {
        clock.schedule(at: VirtualClock.Instant(ticks: tick)) { subject.send(completion: completion) }
    }
    return subject
}

/// An error whose description does not depend on how values are printed: `Outage`.
struct Outage: Error, Equatable, CustomStringConvertible {
    var description: String { "Outage" }
}
