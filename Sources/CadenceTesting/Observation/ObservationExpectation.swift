#if canImport(Observation)
import Observation

/// Starts an expectation chain on a property of an `@Observable` object: its value now, then its value after each
/// change, and `finished` when the object is released.
///
/// ```swift
/// @Observable final class Counter { var count = 0 }
///
/// let counter = Counter()
/// let counting = expect(counter, \.count)
/// counter.count = 1
/// counting.toEmit([0, 1])
/// ```
///
/// Every step of the DSL applies, on virtual time as on the wall clock. Observation tells of a change before the
/// property is stored, so each new value is read on the next turn — on the virtual clock, at its current tick, after
/// the code that made the change; without a clock, on the main queue — and changes made in one turn are read once,
/// after the last of them (see ``ObservedProperty`` for the details). The object is held weakly.
///
/// The test body's return releases the object, and its stream finishes: that `finished` comes after the test, and
/// the chain lets it go — a chain needs no `thenFinish()` or `thenIgnoreRest()` for it. Under the `.virtualTime`
/// trait, in `withVirtualTime` and in an XCTest test case, a release while the body runs is an event like any other:
/// a chain that has ended by then reports it as a late event. In a Swift Testing test without the trait nothing tells
/// when the body returns, so a chain that has ended lets go of every release; a chain that should see one says
/// `thenFinish()`.
///
/// A step that waits for a change that never comes fails as for any publisher:
///
/// ```text
/// toEmit([0, 1], within: .seconds(1)) failed: value 2 of 2 (1) did not arrive within 1000 ticks (by tick 1000).
///
///     expect(ObservedProperty<Counter, Int>)
///   ✗   .toEmit([0, 1], within: .seconds(1))
///
///      tick  received      expected
///         0  subscription
///         0  0             0         toEmit([0, 1], within: .seconds(1))
///   →  1000  (nothing)     1         toEmit([0, 1], within: .seconds(1))
/// ```
///
/// - Parameters:
///   - object: An `@Observable` object.
///   - keyPath: The property: stored and tracked, or computed from tracked properties.
///   - clock: The virtual clock the reads and the steps run on; by default the task's `VirtualClock.current`. With
///     none, reads run on the main queue and the steps' `async` forms (`timeout:`) wait for them.
///   - demand: The demand requested on subscription; `.unlimited` by default.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@discardableResult
public func expect<Object: Observable & AnyObject, Value>(
    _ object: Object,
    _ keyPath: KeyPath<Object, Value>,
    on clock: VirtualClock? = nil,
    demand: Subscribers.Demand = .unlimited,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> PublisherExpectation<Value, Never> {
    let clock = clock ?? VirtualClock.current
    return PublisherExpectation(
        subscribingTo: ObservedProperty(object, keyPath, on: clock),
        clock: clock,
        demand: demand,
        location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column),
        finishesOnRelease: true
    )
}
#endif
