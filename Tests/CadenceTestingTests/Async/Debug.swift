@testable import Cadence
import CadenceRuntimeHooks
import CadenceTesting
import Testing
@Test func debugHooks() async {
    VirtualTimeExecutor.debugRouting = true
    let log = await withVirtualTime { clock in
        print("BODY start", cadence_current_task_id())
        let loader = await Loader(clock: clock)
        await loader.start()
        print("BODY advance")
        await clock.advance(to: VirtualClock.Instant(ticks: 2000))
        print("BODY advanced")
        return (await loader.log, clock.now.ticks)
    }
    VirtualTimeExecutor.debugRouting = false
    print("DEBUG", log)
}
