import CadenceTesting
import Foundation
import Testing

/// Work a session's body leaves on the clock — a task asleep on it, a scheduled action, a repeating timer — fails the
/// test by default, each piece named; `leftovers: .allowed` lets a test, or every test of a suite, leave it.
@Suite struct LeftoversTests {
    // MARK: Failing by default

    @Test func aTaskLeftAsleepFailsTheBodyNamingWhereItSleepsAndUntilWhen() async throws {
        let line = Synchronized(0)
        let messages = await recordingFailures {
            await withVirtualTime { clock in
                Task {
                    line.value = #line + 1
                    try? await clock.sleep(for: .seconds(10))
                }
                await clock.advance(by: .seconds(1))
            }
        }.map(\.message)
        #expect(
            messages == [
                """
                The body returned at tick 1000 and left work on the virtual clock:
                  a task asleep in VirtualClock.sleep(for:) at CadenceTestingTests/LeftoversTests.swift:\(line.value), \
                since tick 0, until tick 10000
                Finish, cancel or await that work before the body returns, or let this test leave it with \
                withVirtualTime(leftovers: .allowed).
                """
            ])
    }

    @Test func aTaskAsleepThroughAnyClockIsNamedByTheClocksSleepWithoutALocation() async throws {
        func nap(on clock: some Clock<Duration>) async {
            try? await clock.sleep(for: .seconds(3))
        }
        await expectFailures([
            """
            The body returned at tick 0 and left work on the virtual clock:
              a task asleep in VirtualClock.sleep(until:tolerance:), since tick 0, until tick 3000
              a task asleep in VirtualClock.sleep(until:tolerance:), since tick 0, until tick 3000
            Finish, cancel or await that work before the body returns, or let this test leave it with \
            withVirtualTime(leftovers: .allowed).
            """
        ]) {
            await withVirtualTime { clock in
                Task { await nap(on: clock) }
                Task { await nap(on: clock) }
                await clock.advance(by: .zero)
            }
        }
    }

    @Test func scheduledActionsAndRepeatingTimersFailTheBodyToo() throws {
        expectFailures([
            """
            The body returned at tick 500 and left work on the virtual clock:
              2 scheduled actions, due at ticks 700 and 2000
              1 repeating action, next due at tick 600
            Finish, cancel or await that work before the body returns, or let this test leave it with \
            withVirtualTime(leftovers: .allowed).
            """
        ]) {
            withVirtualTime { clock in
                clock.schedule(after: .seconds(2)) {}
                clock.advance(by: .milliseconds(500))
                clock.schedule(after: .milliseconds(200)) {}
                clock.schedule(at: clock.now.advanced(by: .milliseconds(100)), every: .seconds(1)) {}
            }
        }
    }

    @Test func workDueWhenTheBodyReturnsRunsAndIsNotLeftBehind() throws {
        let ran = Synchronized(false)
        expectFailures([]) {
            withVirtualTime { _ in
                DispatchQueue.test.schedule { ran.value = true }
            }
        }
        #expect(ran.value)
    }

    @Test func aTaskTheBodyCancelsAndThatFinishesIsNotLeftBehind() async throws {
        await expectFailures([]) {
            await withVirtualTime { clock in
                let sleeper = Task { try await clock.sleep(for: .seconds(10)) }
                await clock.advance(by: .seconds(1))
                sleeper.cancel()
            }
        }
    }

    @Test func aTaskThatShrugsOffItsCancellationAndSleepsAgainIsLeftBehind() async throws {
        await expectFailures([
            """
            The body returned at tick 1000 and left work on the virtual clock:
              a task asleep in VirtualClock.sleep(until:tolerance:), since tick 1000, until tick 6000
            Finish, cancel or await that work before the body returns, or let this test leave it with \
            withVirtualTime(leftovers: .allowed).
            """
        ]) {
            await withVirtualTime { clock in
                let stubborn = Task {
                    try? await clock.sleep(until: clock.now.advanced(by: .seconds(10)))
                    // Cancelled, it starts a task of its own, which its cancellation does not reach, and waits for it.
                    _ = try? await Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(5))) }.value
                }
                await clock.advance(by: .seconds(1))
                stubborn.cancel()
            }
        }
    }

    // MARK: Opting out

    @Test func leftoversAllowedRunsTheWorkAndReportsNothing() async throws {
        let woke = Synchronized<Int64?>(nil)
        await expectFailures([]) {
            await withVirtualTime(leftovers: .allowed) { clock in
                Task {
                    try? await clock.sleep(for: .seconds(10))
                    woke.value = clock.now.ticks
                }
                await clock.advance(by: .seconds(1))
            }
        }
        #expect(woke.value == 10000)
    }

    static let traitLine = #line + 1
    @Test(
        .reportsFailures([
            """
            The test body returned at tick 0 and left work on the virtual clock:
              a task asleep in VirtualClock.sleep(for:) at CadenceTestingTests/LeftoversTests.swift:\(traitLine + 12), \
            since tick 0, until tick 2000
            Finish, cancel or await that work before the test body returns, or let this test leave it with \
            .virtualTime(leftovers: .allowed).
            """
        ]), .virtualTime)
    func theTraitFailsATestThatLeavesATaskAsleep() async throws {
        let clock = try #require(VirtualClock.current)
        Task { try? await clock.sleep(for: .seconds(2)) }
        await clock.advance(by: .zero)
    }

    // A test of the opt-out itself: it leaves its timer running on purpose.
    @Test(.reportsFailures([]), .virtualTime(horizon: .seconds(1), leftovers: .allowed))
    func theTraitLetsATestThatSaysSoLeaveWork() async throws {
        let clock = try #require(VirtualClock.current)
        Task { try? await clock.sleep(for: .milliseconds(500)) }
        await clock.advance(by: .zero)
    }

    /// `leftovers: .allowed` on a suite reaches each of its tests.
    // A test of the opt-out itself: its tests leave a sleeping task on purpose.
    @Suite(.virtualTime(leftovers: .allowed)) struct ASuiteThatAllowsLeftovers {
        @Test func aTestOfTheSuiteLeavesATaskAsleep() async throws {
            let clock = try #require(VirtualClock.current)
            let woke = Synchronized(false)
            let sleeper = Task {
                try? await clock.sleep(for: .seconds(2))
                woke.value = true
            }
            await clock.advance(by: .zero)
            #expect(!woke.value)
            _ = sleeper
        }

        @Test func theSuitesTraitIsTheOneInEffect() throws {
            let trait = try #require(Test.current?.traits.compactMap { $0 as? VirtualTimeTrait }.first)
            #expect(trait.leftovers == .allowed)
        }
    }
}
