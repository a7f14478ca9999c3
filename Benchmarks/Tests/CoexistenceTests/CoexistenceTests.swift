// Cadence beside combine-schedulers (and so beside The Composable Architecture, which re-exports it): both define
// `TestScheduler`, `AnyScheduler`, `UnimplementedScheduler`, their `…Of<S>` aliases, `DispatchQueue.test`,
// `.unimplemented`, `eraseToAnyScheduler()` and `timerPublisher(every:)`, so a file that imports both must say whose
// it means (their timers' types differ: combine-schedulers' `Publishers.Timer`, Cadence's `SchedulerTimerPublisher`).
// These tests compile the samples of Guides/ComingFrom.md ("Beside combine-schedulers and TCA") as the guide shows
// them (Tests/CadenceTestingTests/Documentation/ComingFromGuideTests.swift checks that they appear here), and check
// that each spelling picks the library it names. On Linux combine-schedulers runs on OpenCombine; the names collide
// just as on Apple platforms, where both libraries use Combine.
import CadenceTesting
import CombineSchedulers
import Foundation
import Testing

/// A TCA-style dependency of the app: its type is combine-schedulers'.
private struct Dependencies {
    var mainQueue: CombineSchedulers.AnySchedulerOf<DispatchQueue>
}

@Suite("Cadence beside combine-schedulers")
struct CoexistenceTests {
    @Test func aTypeNameQualifiedByItsModuleIsThatLibrarysType() {
        let cadence = Cadence.TestSchedulerOf<DispatchQueue>()
        let pointfree = CombineSchedulers.TestSchedulerOf<DispatchQueue>(now: .init(.init(uptimeNanoseconds: 1)))
        var ran: [String] = []
        cadence.schedule(after: cadence.now.advanced(by: .seconds(1))) { ran.append("Cadence") }
        pointfree.schedule(after: pointfree.now.advanced(by: .seconds(1))) { ran.append("combine-schedulers") }
        cadence.advance(by: .seconds(1))
        pointfree.advance(by: .seconds(1))
        #expect(ran == ["Cadence", "combine-schedulers"])
        #expect(isCadence(cadence))
        #expect(!isCadence(pointfree))
    }

    @Test func theTypeOfItsResultPicksAStaticMemberOrAnErasure() {
        let scheduler: Cadence.TestSchedulerOf<DispatchQueue> = DispatchQueue.test
        let erased: Cadence.AnySchedulerOf<DispatchQueue> = scheduler.eraseToAnyScheduler()
        let unimplemented: CadenceTesting.UnimplementedSchedulerOf<DispatchQueue> = DispatchQueue.unimplemented("x")
        let theirs: CombineSchedulers.TestSchedulerOf<DispatchQueue> = DispatchQueue.test
        let theirsErased: CombineSchedulers.AnySchedulerOf<DispatchQueue> = theirs.eraseToAnyScheduler()

        #expect(([scheduler, erased, unimplemented] as [Any]).map(isCadence) == [true, true, true])
        #expect(([theirs, theirsErased] as [Any]).map(isCadence) == [false, false])
        let dependencies = Dependencies(mainQueue: theirs.eraseToAnyScheduler())
        #expect(!isCadence(dependencies.mainQueue))
    }

    @Test func theDSLDrivesCadencesSchedulerBesideCombineSchedulers() {
        withVirtualTime { _ in
            let scheduler: Cadence.TestSchedulerOf<DispatchQueue> = DispatchQueue.test
            expect(Just(1).delay(for: .seconds(1), scheduler: scheduler))
                .toEmit(1, within: .seconds(1))
                .thenFinish()
        }
    }

    /// Whether `value`'s type is declared in Cadence's modules.
    private func isCadence(_ value: Any) -> Bool {
        String(reflecting: type(of: value)).hasPrefix("Cadence")
    }
}
