/// Carries a value that Combine does not declare `Sendable` (a subject, a cancellable, a subscription) into a
/// concurrent stress test; the thing under test is what must make that safe.
struct UncheckedSendable<Value>: @unchecked Sendable { // nothing: the wrapped value's own thread safety is under test
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
