import Cadence
import Dispatch
import Foundation
import Testing

@Suite struct UISchedulerTests {
    /// Marks the main queue for the checks below (`Thread.isMainThread` is false on Linux's main queue once the main
    /// thread has handed it to dispatch's workers).
    private static let mainQueue: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    @MainActor @Test func onTheMainQueueAnActionRunsAtOnce() {
        var ran = false
        UIScheduler.shared.schedule { ran = true }
        #expect(ran)
    }

    /// Scheduled from a queue other than the main one, the action runs on the main queue.
    @Test func fromAnotherQueueAnActionRunsOnTheMainQueue() async {
        let key = Self.mainQueue
        let ranOnMain = await withCheckedContinuation { continuation in
            DispatchQueue(label: "UISchedulerTests").async {
                UIScheduler.shared.schedule {
                    continuation.resume(returning: DispatchQueue.getSpecific(key: key) == true)
                }
            }
        }
        #expect(ranOnMain)
    }

    @Test func itHasDispatchQueueTimeAndErasesToIt() {
        let erased: AnySchedulerOf<DispatchQueue> = UIScheduler.shared.eraseToAnyScheduler()
        #expect(erased.now >= DispatchQueue.main.now.advanced(by: .seconds(-60)))
        #expect(UIScheduler.shared.minimumTolerance == DispatchQueue.main.minimumTolerance)
    }
}
