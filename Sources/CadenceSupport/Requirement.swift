/// Traps with `message` unless `condition` holds, in debug and in optimised builds alike.
///
/// Swift's `precondition(_:_:)` drops its message in optimised builds, and Cadence promises that a broken rule traps
/// with a message that names it. `fatalError(_:file:line:)` prints its message in every build configuration, so
/// Cadence's checks go through it. The check is inlined; the message is built only when the check fails.
@inlinable @inline(__always)
package func require(
    _ condition: @autoclosure () -> Bool,
    _ message: @autoclosure () -> String,
    file: StaticString = #fileID,
    line: UInt = #line
) {
    if !condition() {
        requirementFailure(message(), file: file, line: line)
    }
}

/// Traps with `message`, in debug and in optimised builds alike; see ``require(_:_:file:line:)``.
@usableFromInline @inline(never)
package func requirementFailure(
    _ message: @autoclosure () -> String,
    file: StaticString = #fileID,
    line: UInt = #line
) -> Never {
    fatalError(message(), file: file, line: line)
}
