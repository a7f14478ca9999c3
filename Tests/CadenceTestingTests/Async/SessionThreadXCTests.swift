import CadenceTesting
import Dispatch
import Foundation
import XCTest

/// A synchronous XCTest test that blocks the main thread while a session runs elsewhere: the session's tasks are not
/// the main actor's, so they run without it, as they would in production.
final class SessionThreadXCTests: XCTestCase {
    func testASessionOffTheMainActorRunsWhileTheMainThreadWaits() {
        let done = DispatchSemaphore(value: 0)
        let answer = SessionThreadTests.Log()
        Task.detached {
            let value = await withVirtualTime { clock in
                let task = Task { () -> String in
                    try? await clock.sleep(for: .seconds(1))
                    return "woke at tick \(clock.now.ticks)"
                }
                await clock.advance(by: .seconds(1))
                return await task.value
            }
            answer.append(value)
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success, "the session waited for the blocked main thread")
        XCTAssertEqual(answer.entries, ["woke at tick 1000"])
    }
}
