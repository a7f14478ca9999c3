import CadenceTesting
import Foundation
import Testing

@Suite struct AsyncVirtualTimeTests {
    @Test func outsideASessionTheAsyncAdvanceIsTheSynchronousOne() async {
        let clock = VirtualClock()
        let fired = Synchronized(0)
        clock.schedule(after: .seconds(1)) { fired.update { $0 += 1 } }
        await clock.advance(by: .seconds(1))
        #expect(fired.value == 1)
        #expect(clock.now.ticks == 1000)
        clock.schedule(after: .seconds(1)) { fired.update { $0 += 1 } }
        await clock.advance(to: VirtualClock.Instant(ticks: 1500))
        #expect(fired.value == 1)
        await clock.run()
        #expect(fired.value == 2)
        #expect(clock.now.ticks == 2000)
    }

    @Test func theTestSchedulersAsyncFormsDriveItsClock() async {
        let scheduler = DispatchQueue.test
        let fired = Synchronized(0)
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { fired.update { $0 += 1 } }
        await scheduler.advance(by: .milliseconds(999))
        #expect(fired.value == 0)
        await scheduler.advance()
        #expect(fired.value == 0)
        await scheduler.run()
        #expect(fired.value == 1)
    }
}
