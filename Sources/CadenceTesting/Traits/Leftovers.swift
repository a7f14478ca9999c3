/// What a virtual-time session (`.virtualTime`, `withVirtualTime`) makes of work its body leaves on the clock: a task
/// still asleep on it, a scheduled action or a repeating timer still waiting to run when the body returns.
///
/// By default such work fails the test, each piece named — a task by what it sleeps in (and where, when it slept on the
/// `VirtualClock` itself), since when and until when:
///
/// ```text
/// The body returned at tick 1000 and left work on the virtual clock:
///   a task asleep in VirtualClock.sleep(for:) at MyAppTests/SessionTests.swift:12, since tick 0, until tick 10000
/// Finish, cancel or await that work before the body returns, or let this test leave it with
/// withVirtualTime(leftovers: .allowed).
/// ```
///
/// A test that leaves work behind on purpose says so, with the reason beside it:
///
/// ```swift
/// // The poller's timer runs for the app's whole life; the drain stops it at the horizon.
/// @Test(.virtualTime(leftovers: .allowed)) func pollsEveryFiveSeconds() { … }
/// ```
///
/// On a `@Suite` the choice applies to every test inside, unless a test has a `.virtualTime` trait of its own.
public enum Leftovers: Sendable, Hashable {
    /// Work left on the clock when the body returns fails the test (the default). Work due at that very tick runs
    /// first, and is not left behind; neither is a task the body cancelled that then finished.
    case fail
    /// Work left on the clock is allowed: the session runs it up to its horizon, and notes what is still pending then
    /// without failing the test.
    case allowed
}
