// Failures recorded into Swift Testing for real, caught with `withKnownIssue { } matching: { }` that checks the
// issue's exact text and location. Waiting for failures handed over from other threads uses the reporter's internal
// relay, reached with @testable, which debug builds allow.
#if DEBUG
@testable import CadenceTesting
import Foundation
import Testing

@Suite("FailureReporter.swiftTesting", .quietKnownIssues)
struct FailureReporterSwiftTestingTests {
    /// Whether `issue` has exactly `message` as its comment, at `line` and `column` of this file.
    private func matches(_ issue: Issue, _ message: String, line: Int, column: Int) -> Bool {
        issue.comments.map(\.rawValue) == [message]
            && issue.sourceLocation == SourceLocation(fileID: #fileID, filePath: #filePath, line: line, column: column)
    }

    private static let toEmit2 = """
        toEmit(2) failed: the value differs: expected 2, received 1.

            expect(Just<Int>)
          ✗   .toEmit(2)

             received      expected
             subscription
          →  1             2         toEmit(2)
             finished
        """

    @Test("a failed step is recorded as an issue with the message, at the step")
    func failedStep() {
        withKnownIssue {
            expect(Just(1)).toEmit(2)
        } matching: { issue in
            matches(issue, Self.toEmit2, line: #line - 2, column: 35)
        }
    }

    @Test("events no step expected are recorded at expect")
    func overFulfilment() {
        let line = #line + 2
        withKnownIssue {
            expect([1, 2].publisher)
                .toEmit(1)
        } matching: { issue in
            matches(
                issue,
                """
                expect(Publishers.Sequence<Array<Int>, Never>) received 2 events no step expected: 2, finished.

                    expect(Publishers.Sequence<Array<Int>, Never>)
                  ✓   .toEmit(1)

                     received      expected
                     subscription
                     1             1          toEmit(1)
                  →  2             (no step)
                     finished      (no step)
                """, line: line, column: 19)
        }
    }

    @Test("a late event sent on the test's task is recorded at once, at expect")
    func lateOnTask() {
        nonisolated(unsafe) let subject = PassthroughSubject<Int, Never>()
        withKnownIssue {
            expect(subject)
            subject.send(1)
        } matching: { issue in
            matches(issue, Self.late, line: #line - 3, column: 19)
        }
    }

    private static let late = """
        expect(PassthroughSubject<Int, Never>) received 1 event after its chain had ended: 1.

            expect(PassthroughSubject<Int, Never>)

             received      expected
             subscription
          →  1             (no step)
        """

    @Test("a chain that ends on another thread is recorded in the test that wrote it")
    func chainEndsOnThread() async {
        await withKnownIssue {
            var expectation: PublisherExpectation<Int, Never>? = expect(Just(1))
            expectation?.toEmit(2)
            let relay = expectation?.reporter.relay
            let handoff = Handoff(expectation.take())
            await onNewThread { handoff.release() }
            #expect(handoff.releasedOffTest == true)
            await relay?.settle()
        } matching: { issue in
            matches(issue, Self.toEmit2, line: #line - 7, column: 32)
        }
    }

    @Test("a chain released on a DispatchQueue is recorded in the test that wrote it, at the failed step")
    func chainEndsOnDispatchQueue() async {
        let line = #line + 3
        await withKnownIssue {
            var expectation: PublisherExpectation<Int, Never>? = expect(Just(1))
            expectation?.toEmit(2)
            let relay = expectation?.reporter.relay
            let handoff = Handoff(expectation.take())
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    handoff.release()
                    continuation.resume()
                }
            }
            await relay?.settle()
        } matching: { issue in
            matches(issue, Self.toEmit2, line: line, column: 32)
        }
    }

    @Test("a late event sent from a DispatchQueue is recorded in the test that wrote the expectation")
    func lateOnDispatchQueue() async {
        nonisolated(unsafe) let subject = PassthroughSubject<Int, Never>()
        let line = #line + 2
        await withKnownIssue {
            let relay = expect(subject).reporter.relay
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    subject.send(1)
                    continuation.resume()
                }
            }
            await relay?.settle()
        } matching: { issue in
            matches(issue, Self.late, line: line, column: 31)
        }
    }

    @Test("a late event sent from another thread is recorded in the test that wrote the expectation")
    func lateOnThread() async {
        nonisolated(unsafe) let subject = PassthroughSubject<Int, Never>()
        await withKnownIssue {
            let relay = expect(subject).reporter.relay
            await onNewThread { subject.send(1) }
            await relay?.settle()
        } matching: { issue in
            matches(issue, Self.late, line: #line - 4, column: 31)
        }
    }

    @Test("a late event sent from a detached task is recorded in the test that wrote the expectation")
    func lateOnDetachedTask() async {
        nonisolated(unsafe) let subject = PassthroughSubject<Int, Never>()
        await withKnownIssue {
            let relay = expect(subject).reporter.relay
            await Task.detached { subject.send(1) }.value
            await relay?.settle()
        } matching: { issue in
            matches(issue, Self.late, line: #line - 4, column: 31)
        }
    }

    @Test("in an expectation scope, a late event from another thread is recorded when the scope finishes, at once")
    func lateInScope() async {
        nonisolated(unsafe) let subject = PassthroughSubject<Int, Never>()
        let scope = ExpectationScope()
        let line = #line + 2
        await withKnownIssue {
            ExpectationScope.$current.withValue(scope) { expect(subject) }
            await onNewThread { subject.send(1) }
            scope.finish()
        } matching: { issue in
            matches(issue, Self.late, line: line, column: 64)
        }
    }

    @Test("failures from many threads at once are each recorded once, in this test")
    func manyThreads() async {
        nonisolated(unsafe) let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let count = Locked(0)
        await withKnownIssue {
            let relays = subjects.map { expect($0).reporter.relay }
            await onNewThread {
                DispatchQueue.concurrentPerform(iterations: 4) { index in
                    subjects[index].send(1)
                    subjects[index].send(2)
                }
            }
            for relay in relays { await relay?.settle() }
        } matching: { issue in
            count.withLock { $0 += 1 }
            return issue.comments.first?.rawValue.hasPrefix(
                "expect(PassthroughSubject<Int, Never>) received 1 event after its chain had ended"
            ) == true
        }
        #expect(count.withLock { $0 } == 4)
    }

    @Test("an unimplemented scheduler made in the test and used on another thread records its failure in the test")
    func unimplementedSchedulerOnThread() async {
        let line = #line + 2
        await withKnownIssue {
            let scheduler = DispatchQueue.unimplemented("thread")
            await onNewThread { scheduler.schedule {} }
            await scheduler.reporter?.relay?.settle()
        } matching: { issue in
            matches(
                issue,
                """
                DispatchQueue.unimplemented("thread") was asked to schedule(options:_:) an action to run as soon as \
                possible; an unimplemented scheduler runs nothing, so the action was not run.
                """, line: line, column: 56)
        }
    }

    @Test("a chain that passed and watches nothing starts no relay task; one that watches for late events does")
    func aPassingChainStartsNoRelay() {
        var passing: FailureRelay?
        do {
            let chain = expect(Just(1))
            passing = chain.reporter.relay
            chain.toEmit(1).thenFinish()
        }
        #expect(passing?.hasStarted == false)
        let subject = PassthroughSubject<Int, Never>()
        let watching = expect(subject).reporter.relay
        #expect(watching?.hasStarted == true)
    }

    @Test("a failed step starts the chain's relay on the test's task, before the chain ends")
    func aFailedStepStartsTheRelay() {
        withKnownIssue {
            let chain = expect(Just(1))
            #expect(chain.reporter.relay?.hasStarted == false)
            chain.toEmit(2)
            #expect(chain.reporter.relay?.hasStarted == true)
        } matching: { issue in
            matches(issue, Self.toEmit2, line: #line - 3, column: 25)
        }
    }

    @Test("a reporter made where no Swift Testing test runs has no relay")
    func noRelayOffTest() async {
        let relay = await Task.detached { FailureReporter.swiftTesting.relay }.value
        #expect(relay == nil)
        #expect(FailureReporter.swiftTesting.relay != nil)
    }
}

/// Holds an expectation until `release()` drops it, noting whether that happened off any Swift Testing test.
private final class Handoff: @unchecked Sendable {
    // `state` guards the expectation and the note.
    private let state: Locked<(PublisherExpectation<Int, Never>?, Bool?)>

    init(_ expectation: PublisherExpectation<Int, Never>?) {
        state = Locked((expectation, nil))
    }

    /// Drops the expectation here, ending its chain on this thread.
    func release() {
        let expectation = state.withLock { state in
            defer { state.0 = nil }
            return state.0
        }
        _ = expectation
        let offTest = Test.current == nil
        state.withLock { $0.1 = offTest }
    }

    var releasedOffTest: Bool? { state.withLock { $0.1 } }
}

extension Optional {
    /// The value, leaving nil behind.
    fileprivate mutating func take() -> Wrapped? {
        defer { self = nil }
        return self
    }
}

#endif
