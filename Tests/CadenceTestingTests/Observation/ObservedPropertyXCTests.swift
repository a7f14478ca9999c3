#if canImport(XCTest) && canImport(Observation)
import CadenceTesting
import Dispatch
import Observation
import XCTest

/// `expect(_:_:)` on an `@Observable` property from XCTest: reported through XCTest, on virtual time and on the main
/// queue.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
final class ObservedPropertyXCTests: XCTestCase {
    func testItRecordsEachChangeOnVirtualTime() {
        let log = FailureLog()
        let counter = ObservedCounter()
        withVirtualTime { clock in
            clock.schedule(after: .seconds(1)) { counter.count = 1 }
            clock.schedule(after: .seconds(2)) { counter.count = 2 }
            reporting(to: log) {
                let counting = expect(counter, \.count)
                counting.toEmit([0, 1, 2], within: .seconds(2))
                XCTAssertEqual(counting.events.map(\.time), [.tick(0), .tick(0), .tick(1000), .tick(2000)])
            }
        }
        XCTAssertEqual(log.messages, [])
    }

    func testAChangeMadeOnTheMainQueueIsReadThere() {
        let log = FailureLog()
        let counter = ObservedCounter()
        let counting = reporting(to: log) { expect(counter, \.count, on: nil) }
        DispatchQueue.main.async { counter.count = 1 }
        let read = XCTestExpectation(description: "the change is read")
        DispatchQueue.main.async { DispatchQueue.main.async { read.fulfill() } }
        wait(for: [read], timeout: 60)
        XCTAssertEqual(counting.values, [0, 1])
        _ = reporting(to: log) { counting.toEmit([0, 1]) }
        XCTAssertEqual(log.messages, [])
    }

    func testAStepThatWaitsForAChangeThatNeverComesFails() {
        let log = FailureLog()
        let counter = ObservedCounter()
        withVirtualTime { _ in
            reporting(to: log) { expect(counter, \.ignored).toEmit([0, 1]) }
        }
        XCTAssertEqual(
            log.messages.map { $0.prefix { $0 != "\n" } },
            [
                "toEmit([0, 1]) failed: value 2 of 2 (1) never arrived: the clock went idle at tick 0 with nothing "
                    + "scheduled — work on a real DispatchQueue, RunLoop or URLSession never runs on virtual time."
            ])
    }

    func testAnObjectReleasedAsTheBodyReturnsIsNoLateEvent() {
        // Before: "… received 1 event after its chain had ended: finished at tick 500.", once the body had returned.
        let log = FailureLog()
        withVirtualTime { clock in
            let counter = ObservedCounter()
            clock.schedule(after: .ticks(500)) { counter.count = 1 }
            _ = reporting(to: log) { expect(counter, \.count).toEmit([0, 1], within: .ticks(500)) }
        }
        XCTAssertEqual(log.messages, [])
    }

    func testAnObjectReleasedWhileTheBodyRunsIsStillALateEvent() {
        let log = FailureLog()
        withVirtualTime { clock in
            var counter: ObservedCounter? = ObservedCounter()
            _ = reporting(to: log) { expect(counter!, \.count).toEmit(0) }
            counter = nil
            clock.advance(by: .ticks(1))
        }
        XCTAssertEqual(
            log.messages.map { $0.prefix { $0 != "\n" } },
            [
                "expect(ObservedProperty<ObservedCounter, Int>) received 1 event after its chain had ended: finished at tick 0."
            ]
        )
    }
}
#endif
