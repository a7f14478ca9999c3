// What `withVirtualTime` reports when it runs inside an XCTest test: no reporter is bound, so its failures go to
// XCTest for real. A `FailureCapturingTestCase`, it captures what XCTest would record instead of failing, and checks
// the exact text.
#if canImport(XCTest)
import CadenceTesting
import Foundation
import XCTest

final class WithVirtualTimeXCTests: FailureCapturingTestCase {
    func testLateOverFulfilmentFailsTheTestAtTheExpectLine() {
        var line = 0
        let failures = capturingXCTestFailures {
            withVirtualTime { _ in
                let subject = CurrentValueSubject<Int, Never>(1)
                line = #line + 1
                expect(subject).toEmit(1)
                subject.send(2)
                subject.send(completion: .finished)
            }
        }
        XCTAssertEqual(
            failures,
            [
                Recorded(
                    message: """
                        failed - expect(CurrentValueSubject<Int, Never>) received 2 events after its chain had ended: 2 at \
                        tick 0, finished at tick 0.

                            expect(CurrentValueSubject<Int, Never>)
                          ✓   .toEmit(1)

                             tick  received      expected
                                0  subscription
                                0  1             1          toEmit(1)
                          →     0  2             (no step)
                                0  finished      (no step)
                        """,
                    file: "\(#filePath)", line: line
                )
            ])
    }

    func testLateEventsOnTheClockAfterTheBodyReturnsFailTheTest() {
        var line = 0
        let failures = capturingXCTestFailures {
            // A test of the drain's late events: the value at tick 40 is left to it on purpose.
            withVirtualTime(leftovers: .allowed) { clock in
                let subject = scheduledSubject(on: clock, [(0, 1), (40, 2)])
                line = #line + 1
                expect(subject).toEmit(1)
            }
        }
        XCTAssertEqual(failures.map(\.line), [line])
        XCTAssertEqual(
            failures.map(\.message),
            [
                """
                failed - expect(PassthroughSubject<Int, Never>) received 1 event after its chain had ended: 2 at tick 40.

                    expect(PassthroughSubject<Int, Never>)
                  ✓   .toEmit(1)

                     tick  received      expected
                        0  subscription
                        0  1             1          toEmit(1)
                  →    40  2             (no step)
                """
            ])
    }

    func testAValueShimRuledOutOnTheClockFailsFastWithAwaitFulfillment() async {
        let log = FailureLog()
        await withVirtualTime { clock in
            let subject = scheduledSubject(on: clock, [(100, 1)], completion: (200, .finished))
            let three = reporting(to: log) { PublisherValueExpectation(subject, expectedValue: 3) }
            await clock.advance(by: .ticks(200))
            // A wait that ran out its timeout would fail this test.
            await fulfillment(of: [three], timeout: 60)
        }
        XCTAssertEqual(
            log.messages,
            [
                "PublisherValueExpectation(expectedValue: 3) failed: the publisher finished after sending [1] without "
                    + "a value equal to 3."
            ])
    }

    func testAFailureShimRuledOutOnTheClockFailsFastWithAwaitFulfillment() async {
        let log = FailureLog()
        await withVirtualTime { clock in
            let subject = scheduledSubject(
                on: clock, [(100, 1)], completion: (300, .finished), failing: TestError.self
            )
            let failed = reporting(to: log) { PublisherFailureExpectation(subject) }
            await clock.run()
            await fulfillment(of: [failed], timeout: 60)
        }
        XCTAssertEqual(
            log.messages,
            [
                "PublisherFailureExpectation() failed: the publisher finished after sending [1] instead of failing."
            ])
    }
}
#endif
