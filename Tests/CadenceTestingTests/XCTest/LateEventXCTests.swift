// Where a late event lands under XCTest, with no `withVirtualTime`: an event that reaches a chain after the chain
// ended fails the test case that made the expectation, at its teardown; one that comes after that test case finished
// fails no test — not the test running by then — and is written to standard error naming the test it belongs to (here
// the test that checks it takes it instead, so that the project's own run prints no warning; XCTestCaseObserverTests
// checks what standard error gets).
//
// XCTest runs one test case at a time, but the order of a class's test cases is XCTest's to choose (alphabetical on
// Apple, the order discovery lists them on Linux), so the two test cases that stage the cross-test story play the same
// part: whichever runs first makes the chain, the other sends the event and checks where it went.
#if canImport(XCTest)
import CadenceSupport
@testable import CadenceTesting
import Foundation
import XCTest

final class LateEventXCTests: FailureCapturingTestCase {
    /// What the first of the two cross-test cases left for the second.
    private struct Handover {
        let publisher: DeafPublisher
        let testName: String
        let line: Int
    }

    private static let handover = Synchronized<Handover?>(nil)

    func testALateEventWhileTheTestRunsFailsItAtItsTeardown() {
        let subject = PassthroughSubject<Int, Never>()
        let line = #line + 2
        do {
            let chain = expect(subject)
            subject.send(1)
            chain.toEmit(1)
        }
        subject.send(2)
        checkingTeardownFailures { failures in
            XCTAssertEqual(
                failures,
                [
                    Recorded(
                        message: """
                            failed - expect(PassthroughSubject<Int, Never>) received 1 event after its chain had ended: 2.

                                expect(PassthroughSubject<Int, Never>)
                              ✓   .toEmit(1)

                                 received      expected
                                 subscription
                                 1             1          toEmit(1)
                              →  2             (no step)
                            """,
                        file: "\(#filePath)", line: line
                    )
                ])
        }
    }

    func testCrossTestLateEvent1() {
        playCrossTestPart()
    }

    func testCrossTestLateEvent2() {
        playCrossTestPart()
    }

    /// The first to run makes a chain on a publisher that ignores cancellation and passes; the second makes that
    /// publisher send, and checks that no failure lands in it and that the event is reported as the first one's.
    private func playCrossTestPart() {
        guard let handover = Self.handover.withLock({ $0 }) else {
            let publisher = DeafPublisher()
            let line = #line + 2
            do {
                let chain = expect(publisher)
                publisher.send(1)
                chain.toEmit(1)
            }
            Self.handover.withLock { $0 = Handover(publisher: publisher, testName: name, line: line) }
            return
        }
        let before = XCTestCaseObserver.shared.strays
        let strays = FailureLog()
        let failures = capturingXCTestFailures {
            XCTestCaseObserver.$strayDestination.withValue(strays.reporter) { handover.publisher.send(2) }
        }
        XCTAssertEqual(failures, [], "the bystander test must not fail")
        XCTAssertEqual(XCTestCaseObserver.shared.strays, before, "caught here, it is neither printed nor counted")
        XCTAssertEqual(strays.failures.map(\.location.line), [handover.line], "at the chain")
        XCTAssertEqual(
            strays.messages,
            [
                """
                \(handover.testName): this failure was found after the test had finished, so it fails no test: \
                expect(DeafPublisher) received 1 event after its chain had ended: the publisher sent 2 after the \
                subscription was cancelled (rule 1.8).

                    expect(DeafPublisher)
                  ✓   .toEmit(1)

                     received             expected
                     subscription
                     1                    1          toEmit(1)
                  →  2 (contract broken)  (no step)
                """
            ])
    }
}

/// A publisher that keeps its one subscriber and sends to it whenever the test says, cancelled or not: a publisher
/// that breaks rule 1.8, the one way an event can reach a chain after XCTest's teardown cancelled its subscription.
private final class DeafPublisher: Publisher, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = Never

    // `subscriber` guards the one subscriber.
    private let subscriber = Synchronized<AnySubscriber<Int, Never>?>(nil)

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        let erased = AnySubscriber(subscriber)
        self.subscriber.withLock { $0 = erased }
        erased.receive(subscription: Subscriptions.empty)
    }

    /// Sends `value` to the subscriber, whatever it asked for.
    func send(_ value: Int) {
        _ = subscriber.withLock { $0 }?.receive(value)
    }
}
#endif
